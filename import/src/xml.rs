//! Reading Colossus's XML files, with every problem placed at a file and line.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use roxmltree::{Document, Node, ParsingOptions};

use crate::Error;

/// An XML file's path and text; parse it with [`XmlFile::parse`].
pub struct XmlFile {
    pub path: PathBuf,
    pub text: String,
}

impl XmlFile {
    /// Reads `path`. A missing or unreadable file is an error at `from`,
    /// the place that named it (a manifest's line), when there is one.
    pub fn read(path: &Path, from: Option<(&Path, u32)>) -> Result<XmlFile, Error> {
        match std::fs::read_to_string(path) {
            Ok(text) => Ok(XmlFile {
                path: path.to_path_buf(),
                text,
            }),
            Err(e) => {
                let what = format!("cannot read {}: {e}", path.display());
                Err(match from {
                    Some((file, line)) => Error::at(file, line, what),
                    None => Error::at(path, 0, what),
                })
            }
        }
    }

    /// Parses the text; broken XML is an error at its line and column.
    pub fn parse(&self) -> Result<Document<'_>, Error> {
        let opts = ParsingOptions {
            allow_dtd: true,
            ..ParsingOptions::default()
        };
        Document::parse_with_options(&self.text, opts).map_err(|e| {
            let pos = e.pos();
            Error {
                file: self.path.clone(),
                line: pos.row,
                column: pos.col,
                message: format!("broken XML: {e}"),
            }
        })
    }

    /// The line a node starts on.
    pub fn line(&self, doc: &Document, node: Node) -> u32 {
        doc.text_pos_at(node.range().start).row
    }

    /// An error at a node's line.
    pub fn error(&self, doc: &Document, node: Node, message: impl Into<String>) -> Error {
        Error::at(&self.path, self.line(doc, node), message)
    }

    /// An attribute that must be there.
    pub fn attr<'a>(
        &self,
        doc: &Document,
        node: Node<'a, '_>,
        name: &str,
    ) -> Result<&'a str, Error> {
        node.attribute(name).ok_or_else(|| {
            self.error(
                doc,
                node,
                format!("<{}> has no `{name}` attribute", node.tag_name().name()),
            )
        })
    }

    /// A number attribute that must be there.
    pub fn num<T: FromStr>(&self, doc: &Document, node: Node, name: &str) -> Result<T, Error> {
        let text = self.attr(doc, node, name)?;
        text.trim().parse().map_err(|_| {
            self.error(
                doc,
                node,
                format!("`{name}=\"{text}\"` is not a number of the expected range"),
            )
        })
    }

    /// A number attribute, `default` when absent.
    pub fn num_or<T: FromStr>(
        &self,
        doc: &Document,
        node: Node,
        name: &str,
        default: T,
    ) -> Result<T, Error> {
        match node.attribute(name) {
            None => Ok(default),
            Some(_) => self.num(doc, node, name),
        }
    }

    /// A `true`/`false` attribute (any case), false when absent.
    pub fn flag(&self, doc: &Document, node: Node, name: &str) -> Result<bool, Error> {
        match node.attribute(name).map(|v| v.trim().to_ascii_lowercase()) {
            None => Ok(false),
            Some(v) if v == "true" => Ok(true),
            Some(v) if v == "false" => Ok(false),
            Some(v) => Err(self.error(
                doc,
                node,
                format!("`{name}=\"{v}\"` is neither true nor false"),
            )),
        }
    }
}

/// The element children of `node` named `tag`.
pub fn children<'a, 'i>(node: Node<'a, 'i>, tag: &'a str) -> impl Iterator<Item = Node<'a, 'i>> {
    node.children()
        .filter(move |c| c.is_element() && c.tag_name().name() == tag)
}

/// The root element, which must be `tag`.
pub fn root<'a, 'i>(
    file: &XmlFile,
    doc: &'a Document<'i>,
    tag: &str,
) -> Result<Node<'a, 'i>, Error> {
    let r = doc.root_element();
    if r.tag_name().name() != tag {
        return Err(file.error(
            doc,
            r,
            format!(
                "expected a <{tag}> document, found <{}>",
                r.tag_name().name()
            ),
        ));
    }
    Ok(r)
}
