//! A deterministic, synthetic plagiarism corpus for the benchmarks.
//!
//! Everything comes from one seeded xorshift generator, so every run (and every machine)
//! sees the same bytes. Text is drawn word by word from Zipf-distributed vocabularies:
//!
//! - Chinese: a few thousand 1–4-character words built from the common Han characters
//!   listed below, with Chinese punctuation, line breaks and a few Latin words/numbers;
//! - English: a few hundred common words plus a few thousand made-up ones built from
//!   syllables, with capitals, commas, full stops and paragraphs.
//!
//! [`Corpus::generate`] makes 1,000 references (5–7k characters, 70% Chinese) and 300
//! suspects: fresh text with 1–5 passages copied from random references of the same
//! language, about half of them lightly edited (a few percent of the characters
//! replaced); every 30th suspect is instead a whole reference, lightly edited (a repost).

use std::fs;
use std::io;
use std::path::Path;

/// Common Han characters, roughly by frequency (duplicates are removed when the
/// vocabulary is built).
const HAN: &str = "的一是不了在人有我他这个们中来上大为和国地到以说时要就出会可也你对生能而子那得于着下自之\
年过发后作里用道行所然家种事成方多经么去法学如都同现当没动面起看定天分还进好小部其些主样理心她本前开但因只从想实\
日军者意无力它与长把机十民第公此已工使情明性知全三又关点正业外将两高间由问很最重并物手应战向头文体政美相见被利什\
二等产或新己制身果加西斯月话合回特代内信表化老给世位次度门任常先海通教儿原东声提立及比员解水名真论处走义各入几口\
认条平系气题活尔更别打女变四神总何电数安少报才结反受目太量再感建务做接必场件计管期市直德资命山金指克许统区保至队\
形社便空决治展马科司五基眼书非则听白却界达光放强即像难且权思王象完设式色路记南品住告类求据程北边死张该交规万取拉\
格望觉术领共确传师观清今切院让识候带导争运笑飞风步改收根干造言联持组每济车亲极林服快办议往元英士证近失转夫令准布\
始怎呢存未远叫台单影具罗字爱击流备兵连调深商算质团集百需价花党华城石级整府离况亚请技际约示复病息究线似官火断精满\
支视消越器容照须九增研写称企八功吗包片史委乎查轻易早曾除农找装广显吧阿李标谈吃图念六引历首医局突专费号尽另周较注\
语仅考落青随选列武红响虽推势参希古众构房半节土投某案黑维革划敌致陈律足态护七兴派孩验责营星够章音跟志底站严巴例防\
族供效续施留讲型料终答紧黄绝奇察母京段依批群项故按河米围江织害斗双境客纪采举杀攻父苏密低朋温刻呼软件系统数据网络\
算法模型用户服务安装升级删除管理配置文档版本测试性能内存线程并发索引查询检索文本相似抄袭检测论文作业学生老师课程";

/// Common English words, roughly by frequency.
const ENGLISH: &str = "the of and to a in is it you that he was for on are with as his they be at one have \
this from or had by hot word but what some we can out other were all there when up use your how said an each she \
which do their time if will way about many then them write would like so these her long make thing see him two has \
look more day could go come did number sound no most people my over know water than call first who may down side \
been now find any new work part take get place made live where after back little only round man year came show \
every good me give our under name very through just form sentence great think say help low line differ turn cause \
much mean before move right boy old too same tell does set three want air well also play small end put home read \
hand port large spell add even land here must big high such follow act why ask men change went light kind off need \
house picture try us again animal point mother world near build self earth father head stand own page should \
country found answer school grow study still learn plant cover food sun four between state keep eye never last let \
thought city tree cross farm hard start might story saw far sea draw left late run while press close night real \
life few north open seem together next white children begin got walk example ease paper group always music those \
both mark often letter until mile river car feet care second book carry took science eat room friend began idea \
fish mountain stop once base hear horse cut sure watch color face wood main enough plain girl usual young ready \
above ever red list though feel talk bird soon body dog family direct pose leave song measure door product black \
short numeral class wind question happen complete ship area half rock order fire south problem piece told knew pass \
since top whole king space heard best hour better true during hundred five remember step early hold west ground \
interest reach fast verb sing listen six table travel less morning ten simple several vowel toward war lay against \
pattern slow center love person money serve appear road map rain rule govern pull cold notice voice unit power town \
fine certain fly fall lead cry dark machine note wait plan figure star box noun field rest correct able pound done \
beauty drive stood contain front teach week final gave green quick develop ocean warm free minute strong special \
mind behind clear tail produce fact street inch multiply nothing course stay wheel full force blue object decide \
surface deep moon island foot system busy test record boat common gold possible plane stead dry wonder laugh \
thousand ago ran check game shape equate miss brought heat snow tire bring yes distant fill east paint language \
among software package install upgrade remove manager library version release document index query search \
similarity detection student teacher assignment report thread memory performance network server client";

/// Latin words and numbers that turn up inside Chinese text.
const LATIN_IN_CHINESE: &[&str] = &[
    "Linux", "Windows", "API", "HTTP", "JSON", "Python", "Rust", "CPU", "GPU", "USB", "Debian", "Ubuntu", "GitHub",
    "2023", "2024", "10", "100", "3.5", "v2", "SQL", "AI", "PDF", "Excel", "Word",
];

const SYLLABLES: &[&str] = &[
    "ab", "ac", "al", "an", "ar", "be", "bi", "bo", "ca", "ce", "co", "con", "de", "di", "do", "el", "en", "er", "ex",
    "fa", "fi", "for", "ga", "ge", "ho", "im", "in", "ir", "la", "le", "li", "lo", "ma", "me", "mi", "mo", "na", "ne",
    "ni", "no", "or", "pa", "pe", "per", "pi", "po", "pre", "pro", "ra", "re", "ri", "ro", "sa", "se", "si", "so",
    "sta", "str", "ta", "te", "ti", "to", "tra", "un", "va", "ve", "vi", "vo",
];
const SUFFIXES: &[&str] =
    &["", "", "", "s", "ed", "ing", "er", "ion", "ity", "al", "ly", "ment", "ness", "ive", "able", "ous", "ism"];

/// A tiny xorshift64* generator: deterministic, no dependencies.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
}

/// Words with Zipf weights (`1 / (rank + 2)^s`), sampled by binary search.
struct Zipf {
    words: Vec<String>,
    cumulative: Vec<f64>,
}

impl Zipf {
    fn new(words: Vec<String>, s: f64) -> Self {
        let mut total = 0.0;
        let cumulative = (0..words.len())
            .map(|r| {
                total += 1.0 / ((r + 2) as f64).powf(s);
                total
            })
            .collect();
        Self { words, cumulative }
    }

    fn sample(&self, rng: &mut Rng) -> &str {
        let total = self.cumulative.last().copied().unwrap_or(0.0);
        let u = rng.unit() * total;
        let i = self.cumulative.partition_point(|&c| c <= u).min(self.words.len() - 1);
        &self.words[i]
    }
}

fn dedup_chars(s: &str) -> Vec<char> {
    let mut seen = std::collections::HashSet::new();
    s.chars().filter(|c| ('\u{4E00}'..='\u{9FFF}').contains(c) && seen.insert(*c)).collect()
}

/// The language of a document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    Chinese,
    English,
}

/// Words of a topic ([`TextGen::topical_text`]), drawn from these vocabulary ranks, and
/// the share of a topical text's words they make.
#[allow(dead_code, reason = "topics are the archive benchmark's alone")]
const TOPIC_WORDS: usize = 40;
#[allow(dead_code, reason = "topics are the archive benchmark's alone")]
const TOPIC_RANKS: (usize, usize) = (200, 2_500);
const TOPIC_SHARE: f64 = 0.2;

/// One word: from `topic` (when given) with [`TOPIC_SHARE`], else from `zipf`.
fn word<'a>(zipf: &'a Zipf, rng: &mut Rng, topic: Option<&'a [String]>) -> &'a str {
    match topic {
        Some(words) if !words.is_empty() && rng.chance(TOPIC_SHARE) => &words[rng.below(words.len())],
        _ => zipf.sample(rng),
    }
}

/// Generates running text in either language.
pub struct TextGen {
    han: Vec<char>,
    chinese: Zipf,
    english: Zipf,
}

impl TextGen {
    pub fn new(rng: &mut Rng) -> Self {
        let han = dedup_chars(HAN);
        // Characters themselves are Zipf-ish: words are made mostly of frequent ones.
        let han_zipf = Zipf::new(han.iter().map(|c| c.to_string()).collect(), 0.9);
        let mut chinese: Vec<String> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        // The most frequent "words" are single characters (的, 是, 了…), as in real text.
        for c in han.iter().take(40) {
            seen.insert(c.to_string());
            chinese.push(c.to_string());
        }
        while chinese.len() < 4_000 {
            let len = match rng.below(100) {
                0..=14 => 1,
                15..=79 => 2,
                80..=91 => 3,
                _ => 4,
            };
            let word: String = (0..len).map(|_| han_zipf.sample(rng).to_string()).collect();
            if seen.insert(word.clone()) {
                chinese.push(word);
            }
        }
        let mut english: Vec<String> = ENGLISH.split_whitespace().map(str::to_string).collect();
        let mut seen: std::collections::HashSet<String> = english.iter().cloned().collect();
        while english.len() < 3_000 {
            let n = rng.range(2, 4);
            let mut word: String = (0..n).map(|_| SYLLABLES[rng.below(SYLLABLES.len())]).collect();
            word.push_str(SUFFIXES[rng.below(SUFFIXES.len())]);
            if seen.insert(word.clone()) {
                english.push(word);
            }
        }
        Self { han, chinese: Zipf::new(chinese, 1.0), english: Zipf::new(english, 1.0) }
    }

    /// At least `chars` characters of text, ending with a whole sentence.
    pub fn text(&self, rng: &mut Rng, lang: Lang, chars: usize) -> String {
        self.text_on(rng, lang, chars, None)
    }

    /// [`Self::text`] about a topic of its own: a fifth of its words come from a few dozen
    /// words of the middle of the vocabulary drawn for it. Without topics every document
    /// has the same word distribution, and SimHash finds most pairs of unrelated documents
    /// within 12 bits (44% of an archive's candidates); with them the distances spread as
    /// between real articles on different subjects (around 32 of 64 bits).
    #[allow(dead_code, reason = "topics are the archive benchmark's alone")]
    pub fn topical_text(&self, rng: &mut Rng, lang: Lang, chars: usize) -> String {
        let zipf = match lang {
            Lang::Chinese => &self.chinese,
            Lang::English => &self.english,
        };
        let words: Vec<String> =
            (0..TOPIC_WORDS).map(|_| zipf.words[rng.range(TOPIC_RANKS.0, TOPIC_RANKS.1)].clone()).collect();
        self.text_on(rng, lang, chars, Some(&words))
    }

    fn text_on(&self, rng: &mut Rng, lang: Lang, chars: usize, topic: Option<&[String]>) -> String {
        let mut out = String::with_capacity(chars * 3 + 64);
        let mut n = 0;
        let mut in_paragraph = 0;
        let paragraph_len = rng.range(3, 8);
        while n < chars {
            n += match lang {
                Lang::Chinese => self.chinese_sentence(rng, &mut out, topic),
                Lang::English => self.english_sentence(rng, &mut out, topic),
            };
            in_paragraph += 1;
            if in_paragraph >= paragraph_len {
                in_paragraph = 0;
                out.push_str(if lang == Lang::English { "\n\n" } else { "\n" });
                n += 1 + usize::from(lang == Lang::English);
            } else if lang == Lang::English {
                out.push(' ');
                n += 1;
            }
        }
        out
    }

    /// Appends one sentence; returns its length in characters.
    fn chinese_sentence(&self, rng: &mut Rng, out: &mut String, topic: Option<&[String]>) -> usize {
        let words = rng.range(6, 28);
        let mut n = 0;
        for i in 0..words {
            if rng.chance(0.03) {
                // A Latin word or number, with spaces around it as people usually type.
                let w = LATIN_IN_CHINESE[rng.below(LATIN_IN_CHINESE.len())];
                out.push(' ');
                out.push_str(w);
                out.push(' ');
                n += w.len() + 2;
            } else {
                let w = word(&self.chinese, rng, topic);
                out.push_str(w);
                n += w.chars().count();
            }
            if i + 1 < words && rng.chance(0.12) {
                out.push(if rng.chance(0.85) { '，' } else { '、' });
                n += 1;
            }
        }
        out.push(match rng.below(20) {
            0 => '？',
            1 => '！',
            2 => '；',
            _ => '。',
        });
        n + 1
    }

    fn english_sentence(&self, rng: &mut Rng, out: &mut String, topic: Option<&[String]>) -> usize {
        let words = rng.range(5, 24);
        let start = out.len();
        for i in 0..words {
            let w = word(&self.english, rng, topic);
            if i == 0 {
                let mut cs = w.chars();
                if let Some(first) = cs.next() {
                    out.extend(first.to_uppercase());
                    out.push_str(cs.as_str());
                }
            } else {
                out.push_str(w);
            }
            if i + 1 < words {
                if rng.chance(0.08) {
                    out.push(',');
                }
                out.push(' ');
            }
        }
        out.push(if rng.chance(0.95) { '.' } else { '?' });
        out[start..].len() // English text is ASCII: bytes = characters
    }

    /// `text` with about `rate` of its letters replaced by other letters of the same kind.
    pub fn lightly_edited(&self, rng: &mut Rng, text: &str, rate: f64) -> String {
        text.chars()
            .map(|c| {
                if !rng.chance(rate) {
                    c
                } else if ('\u{4E00}'..='\u{9FFF}').contains(&c) {
                    self.han[rng.below(self.han.len())]
                } else if c.is_ascii_lowercase() {
                    (b'a' + rng.below(26) as u8) as char
                } else {
                    c
                }
            })
            .collect()
    }
}

/// One generated document.
pub struct Doc {
    pub name: String,
    pub lang: Lang,
    pub text: String,
}

/// References and suspects.
pub struct Corpus {
    pub references: Vec<Doc>,
    pub suspects: Vec<Doc>,
}

/// Character offsets of sentence ends (just after a terminator) in `chars`.
fn sentence_ends(chars: &[char]) -> Vec<usize> {
    chars
        .iter()
        .enumerate()
        .filter(|(_, c)| matches!(c, '。' | '！' | '？' | '；' | '.' | '?'))
        .map(|(i, _)| i + 1)
        .collect()
}

/// A run of whole sentences of about `len` characters from `text`.
pub fn passage(rng: &mut Rng, text: &str, len: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    let ends = sentence_ends(&chars);
    if ends.len() < 2 {
        return text.to_string();
    }
    let first = rng.below(ends.len() - 1);
    let start = ends[first];
    let end = ends[first + 1..].iter().copied().find(|&e| e >= start + len).unwrap_or(chars.len());
    chars[start..end].iter().collect::<String>().trim_start().to_string()
}

impl Corpus {
    /// The standard benchmark corpus: 1,000 references and 300 suspects.
    pub fn standard() -> Self {
        Self::generate(0x7715_5907, 1_000, 300)
    }

    pub fn generate(seed: u64, references: usize, suspects: usize) -> Self {
        let mut rng = Rng::new(seed);
        let text_gen = TextGen::new(&mut rng);
        let lang = |rng: &mut Rng| if rng.chance(0.7) { Lang::Chinese } else { Lang::English };
        let references: Vec<Doc> = (0..references)
            .map(|i| {
                let lang = lang(&mut rng);
                let chars = rng.range(5_000, 7_000);
                let text = text_gen.text(&mut rng, lang, chars);
                let tag = if lang == Lang::Chinese { "zh" } else { "en" };
                Doc { name: format!("ref_{i:04}_{tag}.txt"), lang, text }
            })
            .collect();
        let pick_reference = |rng: &mut Rng, lang: Lang| loop {
            let r = &references[rng.below(references.len())];
            if r.lang == lang {
                break r;
            }
        };
        let suspects = (0..suspects)
            .map(|i| {
                let lang = lang(&mut rng);
                let tag = if lang == Lang::Chinese { "zh" } else { "en" };
                let text = if i % 30 == 29 {
                    // A repost: a whole reference with a few characters changed.
                    let r = pick_reference(&mut rng, lang);
                    text_gen.lightly_edited(&mut rng, &r.text, 0.02)
                } else {
                    let copies = rng.range(1, 5);
                    let len = rng.range(300, 900);
                    let mut text = text_gen.text(&mut rng, lang, len);
                    for _ in 0..copies {
                        let r = pick_reference(&mut rng, lang);
                        let len = rng.range(150, 1_200);
                        let copied = passage(&mut rng, &r.text, len);
                        let copied = if rng.chance(0.5) {
                            let rate = rng.range(1, 4) as f64 / 100.0;
                            text_gen.lightly_edited(&mut rng, &copied, rate)
                        } else {
                            copied
                        };
                        text.push_str(if lang == Lang::English { "\n\n" } else { "\n" });
                        text.push_str(&copied);
                        text.push_str(if lang == Lang::English { "\n\n" } else { "\n" });
                        let len = rng.range(200, 800);
                        text.push_str(&text_gen.text(&mut rng, lang, len));
                    }
                    text
                };
                Doc { name: format!("sus_{i:04}_{tag}.txt"), lang, text }
            })
            .collect();
        Self { references, suspects }
    }

    fn all(&self) -> impl Iterator<Item = &Doc> {
        self.references.iter().chain(&self.suspects)
    }

    /// Total characters and UTF-8 bytes.
    pub fn size(&self) -> (usize, usize) {
        self.all().fold((0, 0), |(c, b), d| (c + d.text.chars().count(), b + d.text.len()))
    }

    /// Writes `dir/reference/*.txt` and `dir/suspect/*.txt` (UTF-8).
    pub fn write(&self, dir: &Path) -> io::Result<()> {
        for (sub, docs) in [("reference", &self.references), ("suspect", &self.suspects)] {
            let folder = dir.join(sub);
            fs::create_dir_all(&folder)?;
            for d in docs {
                fs::write(folder.join(&d.name), &d.text)?;
            }
        }
        Ok(())
    }
}
