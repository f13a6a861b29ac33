# Makes the committed ingest fixtures (run from tests/data):
#   python3 make_fixtures.py sample.docx            -> sample.docx (header, table, footnote, tracked changes, footer)
#   soffice --headless --convert-to odt sample.docx -> sample.odt
#   the commented script at the end, as mkwrap.py:  python3 mkwrap.py wrap.docx wrap.txt
#   soffice --headless --convert-to pdf wrap.docx   -> wrap.pdf (3 pages, running header, page numbers)
#   encrypted.pdf: a one-line text exported with  soffice --convert-to
#     'pdf:writer_pdf_Export:{"EncryptFile":{"type":"boolean","value":"true"},"DocumentOpenPassword":{"type":"string","value":"secret"}}'
import zipfile, sys
W='xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
def p(*runs): return '<w:p>'+''.join(runs)+'</w:p>'
def r(t): return f'<w:r><w:t xml:space="preserve">{t}</w:t></w:r>'
ct='''<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/header1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"/><Override PartName="/word/footer1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml"/><Override PartName="/word/footnotes.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/></Types>'''
rels='''<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>'''
drels='''<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footer" Target="footer1.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/></Relationships>'''
body=(p(r('第一段：软件包管理系统可以帮助用户'),r('安装和删除软件。'))
 + p(r('Second paragraph with '),'<w:hyperlink r:id="rIdX">'+r('a link')+'</w:hyperlink>',r(' and a note'),'<w:r><w:footnoteReference w:id="1"/></w:r>',r('.'))
 + p(r('Tracked: kept '),'<w:del w:id="9" w:author="a"><w:r><w:delText>deleted </w:delText></w:r></w:del>','<w:ins w:id="10" w:author="a">'+r('inserted')+'</w:ins>',r(' &amp; done'))
 + '<w:tbl><w:tr><w:tc>'+p(r('单元格一'))+'</w:tc><w:tc>'+p(r('cell two'))+'</w:tc></w:tr><w:tr><w:tc>'+p(r('cell three'))+'</w:tc><w:tc>'+p(r('单元格四'))+'</w:tc></w:tr></w:tbl>'
 + p(r('Tab'),'<w:r><w:tab/></w:r>',r('and'),'<w:r><w:br/></w:r>',r('break'))
 + p()
 + p(r('最后一段。'))
 + '<w:sectPr><w:headerReference w:type="default" r:id="rId1"/><w:footerReference w:type="default" r:id="rId2"/></w:sectPr>')
doc=f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document {W}><w:body>{body}</w:body></w:document>'
hdr=f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:hdr {W}>{p(r("页眉 Header text"))}</w:hdr>'
ftr=f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:ftr {W}>{p(r("Footer text 页脚"))}</w:ftr>'
fn=f'''<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:footnotes {W}><w:footnote w:type="separator" w:id="-1">{p('<w:r><w:separator/></w:r>')}</w:footnote><w:footnote w:type="continuationSeparator" w:id="0">{p('<w:r><w:continuationSeparator/></w:r>')}</w:footnote><w:footnote w:id="1">{p(r("脚注：a footnote."))}</w:footnote></w:footnotes>'''
z=zipfile.ZipFile(sys.argv[1],'w',zipfile.ZIP_DEFLATED)
for n,d in [('[Content_Types].xml',ct),('_rels/.rels',rels),('word/_rels/document.xml.rels',drels),('word/document.xml',doc),('word/header1.xml',hdr),('word/footer1.xml',ftr),('word/footnotes.xml',fn)]:
    z.writestr(n,d)
z.close()

# --- wrap.docx (source of wrap.pdf via: soffice --headless --convert-to pdf wrap.docx) ---
# import zipfile, sys
# exec(open('make_fixtures.py').read().split("body=(")[0])
# zh='软件包管理系统可以帮助用户安装、升级和删除软件，它会自动处理依赖关系，并在安装之前检查软件包的签名，以确保软件来源可信。'
# en='A package manager keeps track of which files belong to which package, so that removing software never leaves stray files behind and upgrades replace every file at once.'
# paras=[]
# for i in range(1,13):
#     paras.append(f'第{i}节 Section {i}')
#     paras.append(zh*2)
#     paras.append(en)
# body=''.join(p(r(t)) for t in paras)
# pg='<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>PAGE</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>1</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>'
# body+='<w:sectPr><w:headerReference w:type="default" r:id="rId1"/><w:footerReference w:type="default" r:id="rId2"/></w:sectPr>'
# doc=f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document {W}><w:body>{body}</w:body></w:document>'
# hdr=f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:hdr {W}>{p(r("Twinspot running header"))}</w:hdr>'
# ftr=f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:ftr {W}>{pg}</w:ftr>'
# z=zipfile.ZipFile(sys.argv[1],'w',zipfile.ZIP_DEFLATED)
# for n,d in [('[Content_Types].xml',ct),('_rels/.rels',rels),('word/_rels/document.xml.rels',drels.replace('<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/>','')),('word/document.xml',doc),('word/header1.xml',hdr),('word/footer1.xml',ftr)]:
#     z.writestr(n,d)
# z.close()
# open(sys.argv[2],'w').write('\n'.join(paras)+'\n')
