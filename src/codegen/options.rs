//! What `agentc gen` is asked for: the languages and how they read data.

/// A language agentc writes bindings in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Lang {
    /// TypeScript types: `{slug}.ts`.
    Ts,
    /// zod 4 schemas, checked at compile time against the TypeScript
    /// types: `{slug}.zod.ts`, beside `{slug}.ts`.
    Zod,
    /// pydantic v2 models: `{slug}.py`, the slug made a module name that
    /// `import` takes (`-` made `_`, `_` before a digit or after a keyword).
    Python,
}

impl Lang {
    pub const ALL: [Lang; 3] = [Lang::Ts, Lang::Zod, Lang::Python];

    pub fn name(self) -> &'static str {
        match self {
            Lang::Ts => "ts",
            Lang::Zod => "zod",
            Lang::Python => "python",
        }
    }

    /// What the language's files hold, as people name it.
    pub fn title(self) -> &'static str {
        match self {
            Lang::Ts => "TypeScript",
            Lang::Zod => "zod",
            Lang::Python => "pydantic",
        }
    }

    pub fn from_name(name: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.name() == name)
    }

    /// The file a protocol's bindings go to.
    pub fn file_name(self, slug: &str) -> String {
        match self {
            Lang::Ts => format!("{slug}.ts"),
            Lang::Zod => format!("{slug}.zod.ts"),
            Lang::Python => format!("{}.py", module_name(slug)),
        }
    }

    /// How a comment starts, for the header.
    pub fn comment(self) -> &'static str {
        match self {
            Lang::Ts | Lang::Zod => "//",
            Lang::Python => "#",
        }
    }
}

/// How generated code reads data.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Validators refuse keys the type does not declare (zod
    /// `z.strictObject`); by default they drop them, as a tolerant reader
    /// does (`[diff] readers`).
    pub strict: bool,
    /// An optional property may also be `null`, as data that passed through
    /// OpenAI's strict mode carries it.
    pub optional_null: bool,
    /// Python fields in snake_case, each with its wire name as its alias
    /// (`field-case = "snake"`); by default the wire names themselves.
    pub snake_case: bool,
}

/// Python's keywords, which a property or a module cannot be named.
pub(super) const PYTHON_KEYWORDS: [&str; 35] = [
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// The modules an `import` finds before a file of the same name beside the
/// code that imports it, or that the bindings need themselves: Python's
/// standard library (`sys.stdlib_module_names` of CPython 3.11, those a
/// slug can spell: lowercase), and pydantic with the packages it imports.
/// A module named so would shadow one of them, or never be imported
/// (`email.py`, `typing.py`, `pydantic.py`). Sorted, for a binary search.
#[rustfmt::skip]
const PYTHON_TAKEN_MODULES: &[&str] = &[
    "__future__", "_abc", "_aix_support", "_ast", "_asyncio", "_bisect", "_blake2",
    "_bootsubprocess", "_bz2", "_codecs", "_codecs_cn", "_codecs_hk", "_codecs_iso2022",
    "_codecs_jp", "_codecs_kr", "_codecs_tw", "_collections", "_collections_abc", "_compat_pickle",
    "_compression", "_contextvars", "_crypt", "_csv", "_ctypes", "_curses", "_curses_panel",
    "_datetime", "_dbm", "_decimal", "_elementtree", "_frozen_importlib",
    "_frozen_importlib_external", "_functools", "_gdbm", "_hashlib", "_heapq", "_imp", "_io",
    "_json", "_locale", "_lsprof", "_lzma", "_markupbase", "_md5", "_msi", "_multibytecodec",
    "_multiprocessing", "_opcode", "_operator", "_osx_support", "_overlapped", "_pickle",
    "_posixshmem", "_posixsubprocess", "_py_abc", "_pydecimal", "_pyio", "_queue", "_random",
    "_scproxy", "_sha1", "_sha256", "_sha3", "_sha512", "_signal", "_sitebuiltins", "_socket",
    "_sqlite3", "_sre", "_ssl", "_stat", "_statistics", "_string", "_strptime", "_struct",
    "_symtable", "_thread", "_threading_local", "_tkinter", "_tokenize", "_tracemalloc", "_typing",
    "_uuid", "_warnings", "_weakref", "_weakrefset", "_winapi", "_zoneinfo", "abc", "aifc",
    "annotated_types", "antigravity", "argparse", "array", "ast", "asynchat", "asyncio", "asyncore",
    "atexit", "audioop", "base64", "bdb", "binascii", "bisect", "builtins", "bz2", "calendar",
    "cgi", "cgitb", "chunk", "cmath", "cmd", "code", "codecs", "codeop", "collections", "colorsys",
    "compileall", "concurrent", "configparser", "contextlib", "contextvars", "copy", "copyreg",
    "crypt", "csv", "ctypes", "curses", "dataclasses", "datetime", "dbm", "decimal", "difflib",
    "dis", "distutils", "doctest", "email", "encodings", "ensurepip", "enum", "errno",
    "faulthandler", "fcntl", "filecmp", "fileinput", "fnmatch", "fractions", "ftplib", "functools",
    "gc", "genericpath", "getopt", "getpass", "gettext", "glob", "graphlib", "grp", "gzip",
    "hashlib", "heapq", "hmac", "html", "http", "idlelib", "imaplib", "imghdr", "imp", "importlib",
    "inspect", "io", "ipaddress", "itertools", "json", "keyword", "lib2to3", "linecache", "locale",
    "logging", "lzma", "mailbox", "mailcap", "marshal", "math", "mimetypes", "mmap", "modulefinder",
    "msilib", "msvcrt", "multiprocessing", "netrc", "nis", "nntplib", "nt", "ntpath", "nturl2path",
    "numbers", "opcode", "operator", "optparse", "os", "ossaudiodev", "pathlib", "pdb", "pickle",
    "pickletools", "pipes", "pkgutil", "platform", "plistlib", "poplib", "posix", "posixpath",
    "pprint", "profile", "pstats", "pty", "pwd", "py_compile", "pyclbr", "pydantic",
    "pydantic_core", "pydoc", "pydoc_data", "pyexpat", "queue", "quopri", "random", "re",
    "readline", "reprlib", "resource", "rlcompleter", "runpy", "sched", "secrets", "select",
    "selectors", "shelve", "shlex", "shutil", "signal", "site", "smtpd", "smtplib", "sndhdr",
    "socket", "socketserver", "spwd", "sqlite3", "sre_compile", "sre_constants", "sre_parse", "ssl",
    "stat", "statistics", "string", "stringprep", "struct", "subprocess", "sunau", "symtable",
    "sys", "sysconfig", "syslog", "tabnanny", "tarfile", "telnetlib", "tempfile", "termios",
    "textwrap", "this", "threading", "time", "timeit", "tkinter", "token", "tokenize", "tomllib",
    "trace", "traceback", "tracemalloc", "tty", "turtle", "turtledemo", "types", "typing",
    "typing_extensions", "unicodedata", "unittest", "urllib", "uu", "uuid", "venv", "warnings",
    "wave", "weakref", "webbrowser", "winreg", "winsound", "wsgiref", "xdrlib", "xml", "xmlrpc",
    "zipapp", "zipfile", "zipimport", "zlib", "zoneinfo",
];

/// The module a slug's bindings are, as `import` takes it: the slug's `-`
/// made `_`, with `_` before a leading digit (`1-agent` is `_1_agent`) and
/// after a keyword or a module `import` would find first (`class` is
/// `class_`, `email` is `email_`). A slug holds only lowercase letters,
/// digits, `-` and `_` ([`super::slug`]).
fn module_name(slug: &str) -> String {
    let name = slug.replace('-', "_");
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{name}")
    } else if PYTHON_KEYWORDS.contains(&name.as_str())
        || PYTHON_TAKEN_MODULES.binary_search(&name.as_str()).is_ok()
    {
        format!("{name}_")
    } else {
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_taken_modules_are_sorted_for_the_binary_search() {
        assert!(PYTHON_TAKEN_MODULES.windows(2).all(|w| w[0] < w[1]));
    }
}
