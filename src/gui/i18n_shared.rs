//! The words of a shared archive (a PostgreSQL server) in English and 简体中文: the
//! "Open shared archive…" form and what the Archive group says of a shared archive. A
//! table of its own, so that texts added to `i18n` merge without touching these.

use super::i18n::Lang;

impl Lang {
    /// The words of a shared archive in this language.
    pub fn shared_tr(self) -> &'static SharedTr {
        match self {
            Lang::En => &SHARED_EN,
            Lang::Zh => &SHARED_ZH,
        }
    }
}

/// Every fixed text of a shared archive.
pub struct SharedTr {
    pub open_shared: &'static str,
    pub tip_open_shared: &'static str,
    pub form_title: &'static str,
    pub url: &'static str,
    pub tip_url: &'static str,
    pub schema: &'static str,
    pub user: &'static str,
    pub password: &'static str,
    pub tip_password: &'static str,
    pub connect: &'static str,
    pub cancel: &'static str,
    pub not_a_url: &'static str,
    pub connecting: &'static str,
    pub tip_cancel_open: &'static str,
    pub marks_home: &'static str,
}

pub static SHARED_EN: SharedTr = SharedTr {
    open_shared: "Open shared archive…",
    tip_open_shared: "Use an archive on a PostgreSQL server that several people add to and check against at once.",
    form_title: "Open shared archive",
    url: "Server",
    tip_url: "postgresql://HOST[:PORT]/DATABASE, with ?sslmode=require or verify-full for an encrypted connection.",
    schema: "Schema",
    user: "User",
    password: "Password",
    tip_password: "Kept in memory while the window runs; never saved. Leave empty to use PGPASSWORD or ~/.pgpass.",
    connect: "Connect",
    cancel: "Cancel",
    not_a_url: "Give a server as postgresql://HOST/DATABASE.",
    connecting: "Connecting to the server…",
    tip_cancel_open: "Stop waiting for the server.",
    marks_home: "Review marks are kept on this computer.",
};

pub static SHARED_ZH: SharedTr = SharedTr {
    open_shared: "打开共享文档库…",
    tip_open_shared: "使用 PostgreSQL 服务器上的文档库：多人可同时向其中添加文档并与之比对。",
    form_title: "打开共享文档库",
    url: "服务器",
    tip_url: "postgresql://主机[:端口]/数据库；加密连接请加 ?sslmode=require 或 verify-full。",
    schema: "模式",
    user: "用户",
    password: "密码",
    tip_password: "仅在窗口运行期间保存在内存中，从不写入磁盘。留空则使用 PGPASSWORD 或 ~/.pgpass。",
    connect: "连接",
    cancel: "取消",
    not_a_url: "请以 postgresql://主机/数据库 的形式填写服务器。",
    connecting: "正在连接服务器…",
    tip_cancel_open: "不再等待服务器。",
    marks_home: "审阅标记保存在本机。",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_languages_name_the_shared_archive() {
        assert_eq!(Lang::En.shared_tr().open_shared, "Open shared archive…");
        assert_eq!(Lang::Zh.shared_tr().open_shared, "打开共享文档库…");
    }
}
