//! Sentence encoder benchmarks (criterion): Chinese and English sentences embedded by
//! `meaning::Model::embed` on one thread, as characters (elements) and bytes a second, and
//! the model's load. `_cold` forgets the per-piece cache before each run, so every piece is
//! computed again. Figures and method in docs/meaning.md.

#![allow(clippy::unwrap_used, clippy::expect_used, reason = "a benchmark that cannot set up stops with the message")]
#![allow(clippy::cast_possible_truncation, reason = "a benchmark's sizes are small")]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use twinspot::meaning::Model;

/// Sentences in the register of the corpora Twinspot checks (documentation, essays).
const ZH: &[&str] = &[
    "软件包管理系统可以帮助用户安装、升级和删除软件。",
    "它会自动处理依赖关系，并在安装之前检查软件包的签名。",
    "内核根据进程的优先级来调度进程，优先级高的进程先运行。",
    "如果系统无法启动，可以使用救援模式修复引导程序。",
    "每个用户都有自己的主目录，其中保存着个人的配置文件。",
    "抄袭是指将他人的作品当作自己的作品来发表。",
    "学生在写论文时应当注明所有引用的来源。",
    "网络配置文件决定了系统启动时如何连接到网络。",
];
const EN: &[&str] = &[
    "A package manager keeps track of which files belong to which package.",
    "It resolves dependencies automatically and checks each package's signature before installing it.",
    "The kernel schedules processes according to their priority, running the highest first.",
    "If the system does not boot, rescue mode can be used to repair the boot loader.",
    "Every user has a home directory that holds their personal configuration files.",
    "Plagiarism is presenting another person's work as one's own.",
    "Students writing a thesis should cite the source of every quotation.",
    "The network configuration decides how the system connects when it starts.",
];

/// `rounds` copies of the sentences, numbered so no two are the same text.
fn corpus(sentences: &[&str], rounds: usize) -> Vec<String> {
    (0..rounds).flat_map(|r| sentences.iter().map(move |s| format!("{s} {r}"))).collect()
}

fn embed(c: &mut Criterion) {
    let model = Model::load_default().expect("the model is in assets/meaning");
    let mut group = c.benchmark_group("meaning");
    group.sample_size(10);
    for (name, sentences) in [("zh", ZH), ("en", EN)] {
        let texts = corpus(sentences, 16);
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let chars: usize = texts.iter().map(|t| t.chars().count()).sum();
        let bytes: usize = texts.iter().map(String::len).sum();
        group.throughput(Throughput::Elements(chars as u64));
        group.bench_function(format!("embed_{name}_chars"), |b| b.iter(|| model.embed(&refs)));
        // every piece computed again, as for the first text of a check
        group.bench_function(format!("embed_{name}_chars_cold"), |b| {
            b.iter(|| {
                model.clear_cache();
                model.embed(&refs)
            })
        });
        group.throughput(Throughput::Bytes(bytes as u64));
        group.bench_function(format!("embed_{name}_bytes"), |b| b.iter(|| model.embed(&refs)));
        group.throughput(Throughput::Elements(chars as u64));
        group.bench_function(format!("tokenize_{name}_chars"), |b| {
            b.iter(|| refs.iter().map(|t| model.tokenizer().encode(t).len()).sum::<usize>())
        });
    }
    group.finish();
}

fn load(c: &mut Criterion) {
    let mut group = c.benchmark_group("meaning");
    group.sample_size(10);
    group.bench_function("load", |b| b.iter(|| Model::load_default().expect("model").weight_bytes()));
    group.finish();
}

criterion_group!(benches, embed, load);
criterion_main!(benches);
