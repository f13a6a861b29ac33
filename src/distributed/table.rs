//! A thin layer over the `parquet` crate's low-level column API (no Arrow): write tables
//! of plain columns row group by row group, read rows back by column name.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, Int32Type, Int64Type};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::file::writer::SerializedFileWriter;
use parquet::record::{Field, Row};
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::{ColumnPath, Type};

use super::DistributedError;

/// The values of one column for one row group; `None` is a null (optional columns only).
pub enum Values {
    Long(Vec<Option<i64>>),
    Int(Vec<Option<i32>>),
    Bool(Vec<bool>),
    Text(Vec<Option<String>>),
}

/// A column of a table: name, physical type and whether it may hold nulls.
#[derive(Clone, Copy)]
pub struct ColumnSpec {
    pub name: &'static str,
    pub kind: Kind,
    pub optional: bool,
    /// Delta-encode (ascending or slowly changing integers: positions, offsets).
    pub delta: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Long,
    Int,
    Bool,
    Text,
}

impl ColumnSpec {
    pub const fn required(name: &'static str, kind: Kind) -> Self {
        Self { name, kind, optional: false, delta: false }
    }
    pub const fn optional(name: &'static str, kind: Kind) -> Self {
        Self { name, kind, optional: true, delta: false }
    }
    pub const fn delta(name: &'static str) -> Self {
        Self { name, kind: Kind::Int, optional: false, delta: true }
    }
}

/// An open Parquet file being written (zstd), one row group per [`TableWriter::append`].
pub struct TableWriter {
    path: PathBuf,
    columns: &'static [ColumnSpec],
    writer: SerializedFileWriter<File>,
}

impl TableWriter {
    /// Creates `path` (and its folder) for a table of `columns`, with `metadata` in the
    /// footer.
    pub fn create(
        path: PathBuf,
        table: &str,
        columns: &'static [ColumnSpec],
        metadata: Vec<KeyValue>,
    ) -> Result<Self, DistributedError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| DistributedError::io(dir, e))?;
        }
        let fields: Vec<String> = columns
            .iter()
            .map(|c| {
                let repetition = if c.optional { "OPTIONAL" } else { "REQUIRED" };
                let ty = match c.kind {
                    Kind::Long => "INT64",
                    Kind::Int => "INT32",
                    Kind::Bool => "BOOLEAN",
                    Kind::Text => "BYTE_ARRAY",
                };
                let annotation = if c.kind == Kind::Text { " (UTF8)" } else { "" };
                format!("{repetition} {ty} {}{annotation};", c.name)
            })
            .collect();
        let schema = parse_message_type(&format!("message {table} {{ {} }}", fields.join(" ")))
            .map_err(|e| DistributedError::parquet(&path, e))?;
        let zstd = ZstdLevel::try_new(3).map_err(|e| DistributedError::parquet(&path, e))?;
        let mut props = WriterProperties::builder()
            .set_compression(Compression::ZSTD(zstd))
            .set_key_value_metadata(Some(metadata))
            .set_created_by(crate::report::TOOL.to_string());
        for c in columns.iter().filter(|c| c.delta) {
            let column = ColumnPath::from(c.name);
            props = props
                .set_column_dictionary_enabled(column.clone(), false)
                .set_column_encoding(column, Encoding::DELTA_BINARY_PACKED);
        }
        let file = File::create(&path).map_err(|e| DistributedError::io(&path, e))?;
        let writer = SerializedFileWriter::new(file, Arc::new(schema), Arc::new(props.build()))
            .map_err(|e| DistributedError::parquet(&path, e))?;
        Ok(Self { path, columns, writer })
    }

    /// Writes one row group: `values` in the order of the columns, all of one length.
    pub fn append(&mut self, values: Vec<Values>) -> Result<(), DistributedError> {
        let path = self.path.clone();
        let err = |e| DistributedError::parquet(&path, e);
        if values.len() != self.columns.len() {
            return Err(DistributedError::invalid(&path, "column count differs from the schema"));
        }
        let mut group = self.writer.next_row_group().map_err(err)?;
        for value in values {
            let Some(mut column) = group.next_column().map_err(err)? else {
                return Err(DistributedError::invalid(&path, "more columns than the schema"));
            };
            match value {
                Values::Long(v) => {
                    let (data, defs) = split_nulls(v);
                    column.typed::<Int64Type>().write_batch(&data, defs.as_deref(), None).map_err(err)?;
                }
                Values::Int(v) => {
                    let (data, defs) = split_nulls(v);
                    column.typed::<Int32Type>().write_batch(&data, defs.as_deref(), None).map_err(err)?;
                }
                Values::Bool(v) => {
                    column.typed::<BoolType>().write_batch(&v, None, None).map_err(err)?;
                }
                Values::Text(v) => {
                    let (data, defs) = split_nulls(v);
                    let data: Vec<ByteArray> = data.into_iter().map(|s| ByteArray::from(s.into_bytes())).collect();
                    column.typed::<ByteArrayType>().write_batch(&data, defs.as_deref(), None).map_err(err)?;
                }
            }
            column.close().map_err(err)?;
        }
        group.close().map_err(err)?;
        Ok(())
    }

    /// Writes the footer.
    pub fn finish(self) -> Result<(), DistributedError> {
        let path = self.path;
        self.writer.close().map_err(|e| DistributedError::parquet(&path, e))?;
        Ok(())
    }
}

/// Values without their nulls, and the definition levels when any column value may be
/// null (always given for optional columns: a required column's values have no `None`).
fn split_nulls<T>(values: Vec<Option<T>>) -> (Vec<T>, Option<Vec<i16>>) {
    if values.iter().all(Option::is_some) {
        let defs = vec![1; values.len()];
        let data = values.into_iter().flatten().collect();
        // Definition levels are ignored by required columns and needed by optional ones.
        return (data, Some(defs));
    }
    let defs = values.iter().map(|v| i16::from(v.is_some())).collect();
    (values.into_iter().flatten().collect(), Some(defs))
}

/// An open Parquet file to read.
pub struct TableReader {
    pub path: PathBuf,
    reader: SerializedFileReader<File>,
}

impl TableReader {
    pub fn open(path: &Path) -> Result<Self, DistributedError> {
        let file = File::open(path).map_err(|e| DistributedError::io(path, e))?;
        let reader = SerializedFileReader::new(file).map_err(|e| DistributedError::parquet(path, e))?;
        Ok(Self { path: path.to_path_buf(), reader })
    }

    /// The footer's key-value metadata entry `key`.
    pub fn metadata(&self, key: &str) -> Option<String> {
        let kv = self.reader.metadata().file_metadata().key_value_metadata()?;
        kv.iter().find(|e| e.key == key).and_then(|e| e.value.clone())
    }

    /// Calls `each` with every row, one at a time and holding only the `columns` asked
    /// for (those the file has): a table of millions of rows (the candidate pairs) is
    /// never held whole as rows, which take a hundred times the bytes of their values.
    pub fn for_each_row(
        &self,
        columns: &[&str],
        mut each: impl FnMut(&Row) -> Result<(), DistributedError>,
    ) -> Result<(), DistributedError> {
        let schema = self.reader.metadata().file_metadata().schema();
        let fields = schema.get_fields().iter().filter(|f| columns.contains(&f.name())).cloned().collect();
        let projection = Type::group_type_builder(schema.name())
            .with_fields(fields)
            .build()
            .map_err(|e| DistributedError::parquet(&self.path, e))?;
        let iter = self.reader.get_row_iter(Some(projection)).map_err(|e| DistributedError::parquet(&self.path, e))?;
        for row in iter {
            each(&row.map_err(|e| DistributedError::parquet(&self.path, e))?)?;
        }
        Ok(())
    }
}

/// A column's value in `row`: `Ok(None)` for a null, an error when the column is absent.
pub fn field<'a>(row: &'a Row, name: &str, path: &Path) -> Result<&'a Field, DistributedError> {
    row.get_column_iter()
        .find(|(n, _)| n.as_str() == name)
        .map(|(_, f)| f)
        .ok_or_else(|| DistributedError::invalid(path, format!("no column `{name}`")))
}

/// An integer column value (any integer width), `None` for a null.
pub fn int(row: &Row, name: &str, path: &Path) -> Result<Option<i64>, DistributedError> {
    Ok(match field(row, name, path)? {
        Field::Null => None,
        Field::Byte(v) => Some(i64::from(*v)),
        Field::Short(v) => Some(i64::from(*v)),
        Field::Int(v) => Some(i64::from(*v)),
        Field::Long(v) => Some(*v),
        Field::UByte(v) => Some(i64::from(*v)),
        Field::UShort(v) => Some(i64::from(*v)),
        Field::UInt(v) => Some(i64::from(*v)),
        Field::ULong(v) => Some(*v as i64),
        other => {
            return Err(DistributedError::invalid(path, format!("column `{name}` holds {other}, not an integer")));
        }
    })
}

/// A required integer column value.
pub fn required_int(row: &Row, name: &str, path: &Path) -> Result<i64, DistributedError> {
    int(row, name, path)?.ok_or_else(|| DistributedError::invalid(path, format!("column `{name}` has a null")))
}

/// A text column value, `None` for a null.
pub fn text(row: &Row, name: &str, path: &Path) -> Result<Option<String>, DistributedError> {
    Ok(match field(row, name, path)? {
        Field::Null => None,
        Field::Str(s) => Some(s.clone()),
        other => return Err(DistributedError::invalid(path, format!("column `{name}` holds {other}, not text"))),
    })
}

/// The `.parquet` files of `path`: itself when it is a file, else every one below it
/// (sorted), skipping hidden files and Spark's `_SUCCESS` markers.
pub fn parquet_files(path: &Path) -> Result<Vec<PathBuf>, DistributedError> {
    if path.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut out = Vec::new();
    let mut stack = vec![path.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|e| DistributedError::io(&dir, e))?;
        for entry in entries {
            let entry = entry.map_err(|e| DistributedError::io(&dir, e))?;
            let p = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') || name.starts_with('_') {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else if name.ends_with(".parquet") {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}
