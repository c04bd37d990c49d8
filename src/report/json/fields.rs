//! For the tables' test: the names of every field a value's type serializes at its top level,
//! skipped ones too (a derived `Serialize` names a field it skips through `skip_field`), so that
//! one sample of a type shows all its keys, whichever it would leave out.

use serde::ser::{self, Impossible, Serialize};

/// Every top-level field of `value` (a struct, or an untagged enum's struct variant), in order.
pub(crate) fn fields<T: Serialize>(value: &T) -> Vec<&'static str> {
    let mut recorder = Recorder(Vec::new());
    value
        .serialize(&mut recorder)
        .expect("a struct of named fields");
    recorder.0
}

struct Recorder(Vec<&'static str>);

#[derive(Debug)]
struct NotAStruct;

impl std::fmt::Display for NotAStruct {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not a struct")
    }
}

impl std::error::Error for NotAStruct {}

impl ser::Error for NotAStruct {
    fn custom<M: std::fmt::Display>(_: M) -> Self {
        NotAStruct
    }
}

impl ser::SerializeStruct for &mut Recorder {
    type Ok = ();
    type Error = NotAStruct;

    fn serialize_field<V: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        _: &V,
    ) -> Result<(), NotAStruct> {
        self.0.push(key);
        Ok(())
    }

    fn skip_field(&mut self, key: &'static str) -> Result<(), NotAStruct> {
        self.0.push(key);
        Ok(())
    }

    fn end(self) -> Result<(), NotAStruct> {
        Ok(())
    }
}

/// Anything but a struct is refused: the tables describe objects.
macro_rules! refuse {
    ($($name:ident($($ty:ty),*);)*) => {
        $(fn $name(self, $(_: $ty),*) -> Result<(), NotAStruct> { Err(NotAStruct) })*
    };
}

impl ser::Serializer for &mut Recorder {
    type Ok = ();
    type Error = NotAStruct;
    type SerializeSeq = Impossible<(), NotAStruct>;
    type SerializeTuple = Impossible<(), NotAStruct>;
    type SerializeTupleStruct = Impossible<(), NotAStruct>;
    type SerializeTupleVariant = Impossible<(), NotAStruct>;
    type SerializeMap = Impossible<(), NotAStruct>;
    type SerializeStruct = Self;
    type SerializeStructVariant = Impossible<(), NotAStruct>;

    refuse! {
        serialize_bool(bool); serialize_i8(i8); serialize_i16(i16); serialize_i32(i32);
        serialize_i64(i64); serialize_u8(u8); serialize_u16(u16); serialize_u32(u32);
        serialize_u64(u64); serialize_f32(f32); serialize_f64(f64); serialize_char(char);
        serialize_str(&str); serialize_bytes(&[u8]); serialize_none(); serialize_unit();
        serialize_unit_struct(&'static str);
        serialize_unit_variant(&'static str, u32, &'static str);
    }

    fn serialize_some<V: ?Sized + Serialize>(self, value: &V) -> Result<(), NotAStruct> {
        value.serialize(self)
    }

    fn serialize_newtype_struct<V: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &V,
    ) -> Result<(), NotAStruct> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<V: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &V,
    ) -> Result<(), NotAStruct> {
        Err(NotAStruct)
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, NotAStruct> {
        Err(NotAStruct)
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, NotAStruct> {
        Err(NotAStruct)
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, NotAStruct> {
        Err(NotAStruct)
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, NotAStruct> {
        Err(NotAStruct)
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, NotAStruct> {
        Err(NotAStruct)
    }

    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, NotAStruct> {
        Ok(self)
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, NotAStruct> {
        Err(NotAStruct)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize)]
    struct Sample {
        a: u8,
        #[serde(skip_serializing_if = "Option::is_none")]
        b: Option<u8>,
        #[serde(rename = "cD")]
        c: bool,
    }

    #[test]
    fn skipped_and_renamed_fields_are_named() {
        let sample = Sample {
            a: 1,
            b: None,
            c: true,
        };
        assert_eq!(fields(&sample), ["a", "b", "cD"]);
    }
}
