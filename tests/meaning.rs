//! The sentence encoder as the engine will use it: the shipped model found and loaded,
//! and each Chinese sentence's translation picked out among English ones.

use twinspot::meaning::{Model, cosine, locate};

const ZH: [&str; 5] = [
    "软件包管理系统可以帮助用户安装、升级和删除软件。",
    "如果系统无法启动，可以使用救援模式修复引导程序。",
    "每个用户都有自己的主目录，其中保存着个人的配置文件。",
    "學生在寫論文時應當註明所有引用的來源。",
    "火车早上八点从柏林出发。",
];
const EN: [&str; 5] = [
    "A package management system helps users install, upgrade and remove software.",
    "If the system fails to boot, rescue mode can repair the boot loader.",
    "Every user has a home directory holding their personal configuration files.",
    "Students writing a thesis should cite the sources of all quotations.",
    "The train leaves Berlin at eight in the morning.",
];

#[test]
fn each_translation_is_the_nearest_english_sentence() {
    let path = locate().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join(path.file_name().unwrap());
    std::fs::copy(&path, &copy).unwrap();
    let model = Model::load(&copy).unwrap();
    let zh = model.embed(&ZH);
    let en = model.embed(&EN);
    for (i, z) in zh.iter().enumerate() {
        let scores: Vec<f32> = en.iter().map(|e| cosine(z, e)).collect();
        let best = (0..EN.len()).max_by(|&a, &b| scores[a].total_cmp(&scores[b])).unwrap();
        assert_eq!(best, i, "{}: scores {scores:?}", ZH[i]);
        let others = scores.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, s)| *s).fold(f32::MIN, f32::max);
        assert!(scores[i] - others > 0.15, "{}: {} vs {others}", ZH[i], scores[i]);
    }
}
