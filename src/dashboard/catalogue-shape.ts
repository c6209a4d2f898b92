// The catalogue's shape: what the dashboard knows of each declared resource,
// written by the server (catalogue.ts) into the page and read by the browser
// (client/records/). Types only, so the browser bundle takes nothing of the
// server with them.

/** How a value is shown and typed. */
export type ValueKind =
  | 'id'
  | 'text'
  | 'email'
  | 'int'
  | 'number'
  | 'decimal'
  | 'boolean'
  /** Integer minor units of the `currency` beside it. */
  | 'money'
  | 'date'
  | 'timestamp'
  | 'enum'
  | 'textList'
  | 'idList'
  /** One object, or a list of them (`item` says their fields). */
  | 'object'
  | 'objects';

/** A field of a record as it is read (GraphQL and REST show the same). */
export interface CatalogueField {
  name: string;
  kind: ValueKind;
  nullable: boolean;
  /** An enum's values, in order. */
  values?: string[];
  /** An object's (or a list of objects') fields, and their GraphQL selection. */
  item?: { fields: CatalogueField[]; selection: string };
  /** A reference: the key of the resource whose record it names. */
  reference?: string;
  /** Computed from the record (not stored, never given). */
  readOnly?: boolean;
}

/** A field of a create, update or action input. */
export interface InputField {
  name: string;
  kind: ValueKind;
  /** Required on create (for an update: required fields cannot be cleared). */
  required: boolean;
  /** On an update, whether null clears it (else an emptied field is left as it was). */
  clearable?: boolean;
  values?: string[];
  /** The enum's values a create may give, when fewer than `values` (a new deal's open stages). */
  createValues?: string[];
  reference?: string;
  /** For a list of objects: the fields of one, and the input type's name. */
  item?: { fields: InputField[] };
  /** Only when creating / only when updating. */
  createOnly?: boolean;
  updateOnly?: boolean;
}

/** A list argument the dashboard offers as a search or a filter. */
export interface ListArgument {
  name: string;
  /** GraphQL's type of the variable: `String`, `DealStage`, `Boolean`, `Date`, `ID`. */
  type: string;
  kind: 'search' | 'enum' | 'boolean' | 'date' | 'reference' | 'text' | 'int';
  values?: string[];
  reference?: string;
}

export interface CatalogueAction {
  name: string;
  /** `Clock out`, `Approve`: the button's words. */
  label: string;
  /** The states it may start from; none: any (a record's action). */
  from?: string[];
  to?: string;
  mutation: string;
  input?: { type: string; optional: boolean; fields: InputField[] };
}

export interface CatalogueRelation {
  /** The field on this type that reads the other record(s): `contact`, `deals`. */
  name: string;
  /** The other resource's key. */
  resource: string;
  /** The reference field holding the id: on this record (a reference), on the other's (an inverse). */
  field: string;
}

export interface CatalogueResource {
  /** The last segment of its REST path: `contacts`, `leave-requests` (an export's `resource`). */
  key: string;
  area: { title: string; read: string; write: string };
  /** The dashboard path, the REST path without /v1: `/crm/contacts`. */
  path: string;
  /** Words: ['leave request', 'leave requests']. */
  noun: [string, string];
  graphql: {
    type: string;
    one: string;
    many: string;
    create?: string;
    update?: string;
    delete?: string;
    createInput?: string;
    updateInput?: string;
    sort: string;
    sortValues: string[];
  };
  list: ListArgument[];
  fields: CatalogueField[];
  /** The create and update input (createOnly/updateOnly say which); none: not created through the API. */
  input?: InputField[];
  references: CatalogueRelation[];
  inverses: CatalogueRelation[];
  lifecycle?: {
    field: string;
    states: string[];
    initial: string;
    editableIn: string[];
    /** A DELETE removes the record only in these states; none: in any. */
    deletableIn?: string[];
  };
  actions: CatalogueAction[];
  /** How a record is named: the first group with a value, its values joined by a space. */
  label: string[][];
}

export type Catalogue = CatalogueResource[];
