//! What an object is, by where it stands in a description: the bundler hoists a referred file
//! into the components section of its kind (a schema into `components/schemas`), and inlines
//! what has no such section (an operation, a media type, an unknown place).

/// The kind of the value at a place in a description (OpenAPI 3.x or Swagger 2.0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    /// The document's root.
    Root,
    /// `paths` (and 3.1's `webhooks`): path items by key.
    Paths,
    /// A path item.
    PathItem,
    /// An operation.
    Operation,
    /// A list of parameters.
    Parameters,
    /// A parameter.
    Parameter,
    /// A request body (3.x).
    RequestBody,
    /// An operation's responses by status.
    Responses,
    /// A response.
    Response,
    /// Media types by name (`content`).
    Content,
    /// A media type object.
    MediaType,
    /// A schema.
    Schema,
    /// Schemas by name (`properties`, `$defs`, `definitions`, `patternProperties`).
    SchemaMap,
    /// A list of schemas (`allOf`, `anyOf`, `oneOf`, `prefixItems`).
    SchemaList,
    /// Headers by name.
    Headers,
    /// A header.
    Header,
    /// Examples by name.
    Examples,
    /// An example object.
    Example,
    /// Links by name.
    Links,
    /// A link.
    Link,
    /// Callbacks by name.
    Callbacks,
    /// A callback: path items by expression.
    Callback,
    /// Security schemes by name.
    SecuritySchemes,
    /// A security scheme.
    SecurityScheme,
    /// `components` (3.x).
    Components,
    /// Parameters by name (`components/parameters`, 2.0's `parameters`).
    ParameterMap,
    /// Responses by name (`components/responses`, 2.0's `responses`).
    ResponseMap,
    /// Request bodies by name.
    RequestBodyMap,
    /// Operations by method (3.2's `additionalOperations`).
    OperationMap,
    /// Encodings by property name.
    Encodings,
    /// An encoding object.
    Encoding,
    /// A value whose `$ref`s are data, not references (`example`, `default`, `enum`, `const`,
    /// an example's `value`).
    Literal,
    /// Anywhere else (extensions, `info`, `servers`, ...): references there are inlined.
    Unknown,
}

/// The dialect whose sections a hoisted value goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// Swagger 2.0: `definitions`, `parameters`, `responses` at the root.
    Swagger2,
    /// OpenAPI 3.x. Its `components/pathItems` (3.1) is not used: a path item is copied where
    /// it is referred to, as in 3.0, which every reader of paths understands.
    OpenApi3,
}

impl Dialect {
    /// The dialect of a root document, by its `swagger` or `openapi` field.
    pub(crate) fn of(root: &serde_json::Value) -> Self {
        if root.get("swagger").is_some() {
            return Self::Swagger2;
        }
        Self::OpenApi3
    }
}

impl Kind {
    /// The kind of the value under `key` of a value of this kind.
    pub(crate) fn child(self, key: &str, dialect: Dialect) -> Kind {
        use Kind::*;
        match (self, key) {
            (Literal, _) => Literal,
            (_, k) if k.starts_with("x-") => Unknown,
            (Root, "paths" | "webhooks") => Paths,
            (Root, "components") => Components,
            (Root, "definitions") => SchemaMap,
            (Root, "parameters") => ParameterMap,
            (Root, "responses") => ResponseMap,
            (Root, "securityDefinitions") => SecuritySchemes,
            (Paths | Callback, _) => PathItem,
            (PathItem, "parameters") | (Operation, "parameters") => Parameters,
            (PathItem, "servers") => Unknown,
            (
                PathItem,
                "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace" | "query",
            ) => Operation,
            (PathItem, "additionalOperations") => OperationMap,
            (Operation, "requestBody") => RequestBody,
            (Operation, "responses") => Responses,
            (Operation, "callbacks") => Callbacks,
            (Parameters, _) => Parameter,
            (Parameter | Header, "schema") => Schema,
            (Parameter | Header | MediaType, "content") => Content,
            (Parameter | Header | MediaType, "examples") => Examples,
            (Parameter | Header | MediaType | Schema, "example" | "default" | "enum" | "const") => Literal,
            (Parameter, "items") if dialect == Dialect::Swagger2 => Schema,
            (RequestBody, "content") | (Response, "content") => Content,
            (Responses, _) => Response,
            (Response, "headers") | (Encoding, "headers") => Headers,
            (Response, "links") => Links,
            (Response, "schema") => Schema,
            (Response, "examples") if dialect == Dialect::Swagger2 => Literal,
            (Content, _) => MediaType,
            (MediaType, "schema" | "itemSchema") => Schema,
            (MediaType, "encoding") => Encodings,
            (Encodings, _) => Encoding,
            (Headers, _) => Header,
            (Examples, _) => Example,
            (Example, "value" | "dataValue") => Literal,
            (Links, _) => Link,
            (Callbacks, _) => Callback,
            (SecuritySchemes, _) => SecurityScheme,
            (Components, "schemas") => SchemaMap,
            (Components, "responses") => ResponseMap,
            (Components, "parameters") => ParameterMap,
            (Components, "examples") => Examples,
            (Components, "requestBodies") => RequestBodyMap,
            (Components, "headers") => Headers,
            (Components, "securitySchemes") => SecuritySchemes,
            (Components, "links") => Links,
            (Components, "callbacks") => Callbacks,
            (Components, "pathItems") => Paths,
            (Components, "mediaTypes") => Content,
            (ParameterMap, _) => Parameter,
            (ResponseMap, _) => Response,
            (RequestBodyMap, _) => RequestBody,
            (OperationMap, _) => Operation,
            (SchemaMap, _) => Schema,
            (SchemaList, _) => Schema,
            (Schema, "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas") => {
                SchemaMap
            }
            (Schema, "allOf" | "anyOf" | "oneOf" | "prefixItems") => SchemaList,
            (
                Schema,
                "items"
                | "additionalProperties"
                | "not"
                | "if"
                | "then"
                | "else"
                | "contains"
                | "propertyNames"
                | "unevaluatedItems"
                | "unevaluatedProperties"
                | "additionalItems"
                | "contentSchema",
            ) => Schema,
            (Schema, "examples") => Literal,
            _ => Unknown,
        }
    }

    /// The kind of the items of a list of this kind.
    pub(crate) fn item(self) -> Kind {
        match self {
            Kind::Parameters => Kind::Parameter,
            Kind::SchemaList => Kind::Schema,
            // `items: [..]` of a schema (draft 4 tuples, some 3.0 documents) are schemas.
            Kind::Schema => Kind::Schema,
            Kind::Literal => Kind::Literal,
            _ => Kind::Unknown,
        }
    }

    /// Where a value of this kind is kept when it comes from another file: the section's
    /// pointer (`/components/schemas`), or `None` when it is inlined.
    pub(crate) fn section(self, dialect: Dialect) -> Option<&'static str> {
        match (dialect, self) {
            (Dialect::Swagger2, Kind::Schema) => Some("/definitions"),
            (Dialect::Swagger2, Kind::Parameter) => Some("/parameters"),
            (Dialect::Swagger2, Kind::Response) => Some("/responses"),
            (Dialect::Swagger2, _) => None,
            (_, Kind::Schema) => Some("/components/schemas"),
            (_, Kind::Parameter) => Some("/components/parameters"),
            (_, Kind::Response) => Some("/components/responses"),
            (_, Kind::RequestBody) => Some("/components/requestBodies"),
            (_, Kind::Header) => Some("/components/headers"),
            (_, Kind::Example) => Some("/components/examples"),
            (_, Kind::Link) => Some("/components/links"),
            (_, Kind::Callback) => Some("/components/callbacks"),
            (_, Kind::SecurityScheme) => Some("/components/securitySchemes"),
            _ => None,
        }
    }
}
