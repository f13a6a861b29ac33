//! The report's inline style sheet and script. Print rules: nothing wider than the page,
//! no table cell broken inside a word (`word-break: normal`, `overflow-wrap: anywhere`
//! only for names and hashes, manual hyphens; headings `keep-all`), a page break before
//! each appendix, the optional appendix left out unless asked for.

/// The style sheet. `@page{margin:14mm}` is one rule on its own, so a printer of the
/// report can add a paper size to it.
pub const STYLE: &str = "
body{font-family:system-ui,'Noto Sans CJK SC','Microsoft YaHei','PingFang SC','Twinspot SC',sans-serif;margin:1.5em auto;padding:0 1.5em;color:#222;background:#fff;max-width:1400px;line-height:1.45}
h1{font-size:1.6em;margin:0 0 .2em}h2{font-size:1.25em;margin:1.6em 0 .4em;border-top:1px solid #ccc;padding-top:.8em}
h3{font-size:1.05em;margin:1.4em 0 .3em}h1,h2,h3{overflow-wrap:anywhere}
table{border-collapse:collapse;font-size:.92em;margin:.3em 0 .8em}
td,th{border:1px solid #ddd;padding:.25em .5em;text-align:left;vertical-align:top}
td{overflow-wrap:break-word;word-break:normal;hyphens:manual}
th{background:#f3f3f3;font-weight:600;overflow-wrap:normal;word-break:keep-all;hyphens:manual}
.tok,td.excerpt{overflow-wrap:anywhere}
table.wide{width:100%}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}td.n{white-space:nowrap}
.meta{margin:.15em 0;color:#444}.muted{color:#666}.err{color:#b00}.nd{color:#b00;font-weight:bold}
.summary{border:2px solid #555;border-radius:4px;padding:.6em 1.2em .8em;margin:1em 0}
.summary h2{border:0;margin:.2em 0;padding:0}
.big{font-size:2.2em;font-weight:700;margin:.1em 0}.big small{font-size:.45em;font-weight:400;color:#555}
.review{margin:.4em 0}.review li{margin:.15em 0}
.bar{display:inline-block;height:.7em;background:#d04040;vertical-align:middle;margin-right:.4em}
.sha{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.78em;overflow-wrap:anywhere}
.flags{border:2px solid #c60;background:#fff6ec;padding:.2em 1em .6em;margin:1em 0}.flags h2{border:0;margin:.4em 0}
mark.flag{background:#fc8;outline:1px solid #c60}u.flag{text-decoration:underline wavy #c60}
.sbs{display:flex;gap:1em}.side{flex:1 1 0;min-width:0}.side h4{font-size:.95em;margin:.2em 0;overflow-wrap:anywhere}
.text{white-space:pre-wrap;overflow-wrap:anywhere;border:1px solid #ccc;padding:.6em;max-height:75vh;overflow:auto;line-height:1.6;font-size:.95em}
mark{border-radius:2px;cursor:pointer}mark.flash{outline:2px solid #d00}
mark.dis{background:#eee!important;color:#555!important;outline:1px dashed #888;text-decoration:line-through #999}
tr.dis td{color:#666;background:#f7f7f7}
sup.lbl{font-size:.7em;font-weight:bold;color:#444;margin-right:1px}
.excerpt{white-space:pre-wrap}ul.legend{list-style:none;padding:0;margin:.3em 0}ul.legend li{margin:.15em 0}
table.sortable th{cursor:pointer}table.sortable th[data-dir=asc]::after{content:' ▲'}table.sortable th[data-dir=desc]::after{content:' ▼'}
svg.hist{max-width:640px;width:100%;height:auto}svg.hist text{font-size:11px;fill:#333}svg.hist rect.b{fill:#d04040}
.hit{margin:.5em 0 .8em;border-left:3px solid #ccc;padding-left:.6em}
.ctx{color:#555;overflow-wrap:anywhere;line-height:1.5}.ctx mark{color:#000}
ul.from{list-style:none;padding:0;margin:.2em 0 0;font-size:.92em}ul.from li{margin:.1em 0}
ul.from li.dis{color:#666;text-decoration:line-through #999}.twin{color:#333;font-style:italic;overflow-wrap:anywhere}
.pos{white-space:nowrap;font-variant-numeric:tabular-nums;color:#555}
.appendix,.fulltexts{break-before:page}
@page{margin:14mm}
@media print{body{margin:0;padding:0;font-size:10pt;max-width:none}.text{max-height:none;overflow:visible}
h2,h3,h4{break-after:avoid}tr,.summary,svg,ul.from li{break-inside:avoid}thead{display:table-header-group}
body:not(.print-all) .optional{display:none}
a{color:inherit;text-decoration:none}.sbs{gap:.5em}.noprint{display:none}}
";

/// Clicking a lit passage scrolls to its twin; clicking a heading of a sortable table
/// sorts it (by the cells' `data-v` when they are numbers, else by their text); the check
/// box `#print-all` prints the optional appendix too.
pub const SCRIPT: &str = "
var pa=document.getElementById('print-all');if(pa)pa.addEventListener('change',function(){document.body.classList.toggle('print-all',pa.checked)});
document.addEventListener('click',function(e){var m=e.target.closest('mark[data-twin]');if(!m)return;
var t=document.getElementById(m.dataset.twin);if(!t)return;t.scrollIntoView({block:'center'});
t.classList.add('flash');setTimeout(function(){t.classList.remove('flash')},900);});
document.querySelectorAll('table.sortable').forEach(function(t){t.querySelectorAll('thead th').forEach(function(th,i){
th.addEventListener('click',function(){var d=th.dataset.dir==='desc'?'asc':'desc';
t.querySelectorAll('thead th').forEach(function(h){delete h.dataset.dir});th.dataset.dir=d;
var b=t.tBodies[0],rows=Array.prototype.slice.call(b.rows);
rows.sort(function(x,y){var p=x.cells[i],q=y.cells[i],a=p.dataset.v,c=q.dataset.v;
var r=(a!==undefined&&c!==undefined)?a-c:p.textContent.localeCompare(q.textContent);return d==='asc'?r:-r;});
rows.forEach(function(r){b.appendChild(r)});});});});
";
