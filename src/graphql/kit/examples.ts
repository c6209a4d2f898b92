// A declaration's example bodies: valid requests, written once beside the
// inputs they exercise. The OpenAPI document shows them on each request body,
// and the contract and conformance suites drive every declared resource with
// them, so a new resource brings its own test data. A field that names another
// record is filled in: a sample id in the document, a new record in the suites
// (made from its own resource's example, and taken through the actions the
// example says when only a record in some state will do: an open invoice).
import type { Resource } from './resource.js';

type Body = Record<string, unknown>;

export interface Examples {
  /**
   * A valid create body; `n` (1, 2, …) makes its unique fields unique, and
   * n = 1 is the document's example. It leaves out the fields that name
   * another record (`references`): a required one is filled in with a record
   * of the organization (a sample id in the document).
   */
  create(n: number): Body;
  /** A valid update body, for any record the create example makes; needed when PUT is served. */
  update?: Body;
  /** The bodies of the actions that take input, by action name (without the fields `actionReferences` fill in). */
  actions?: Record<string, Body>;
  /**
   * The actions the record a create's required reference names takes after
   * its own create, by field (`{ invoiceId: { through: ['open'] } }`: a credit
   * note is made against an open invoice); default none.
   */
  references?: Record<string, { through: readonly string[] }>;
  /**
   * The fields of an action's body that name another record, by action: the
   * resource it is of and the actions it takes first (`{ allocate: { invoiceId:
   * { target: invoices, through: ['open'] } } }`).
   */
  actionReferences?: Record<string, Record<string, ExampleReference>>;
}

/** A record an action's example names: a new one of `target`, taken through the actions `through`. */
export interface ExampleReference {
  target: { readonly resource: Resource };
  through?: readonly string[];
}

/** The id in the document's examples, with the prefix of the record's kind. */
const SAMPLE_ULID = '01hzy3k5m8q2w4x6z8a0c2e4g6';

/** The fields a create must give that name another record (a leave request's employeeId). */
export function requiredReferences(resource: Resource): string[] {
  return Object.keys(resource.references ?? {}).filter((field) => resource.input?.fields[field]?.required);
}

/** The id prefix of the record a reference field names. */
function referencedPrefix(resource: Resource, field: string): string {
  return resource.references[field]!.target.idPrefix;
}

/** The create example numbered `n`, each required reference the id `idOf` gives for its field. */
export function createExample(resource: Resource, n: number, idOf: (field: string) => string): Body {
  if (!resource.examples) throw new Error(`${resource.type.name} declares no examples`);
  const references = Object.fromEntries(requiredReferences(resource).map((field) => [field, idOf(field)]));
  return { ...references, ...resource.examples.create(n) };
}

/** The example body of the action `name`, each field its `actionReferences` name the id `idOf` gives for it. */
export function actionExample(resource: Resource, name: string, idOf: (field: string) => string): Body | undefined {
  const body = resource.examples?.actions?.[name];
  if (!body) return undefined;
  const fields = Object.keys(resource.examples?.actionReferences?.[name] ?? {});
  return { ...Object.fromEntries(fields.map((field) => [field, idOf(field)])), ...body };
}

/** The example a request body of the OpenAPI document shows: the create's with sample ids, the update's, an action's. */
export function documentExamples(resource: Resource): { create?: Body; update?: Body; actions: Record<string, Body> } {
  const { examples } = resource;
  const sampleId = (field: string) => `${referencedPrefix(resource, field)}_${SAMPLE_ULID}`;
  const actions = Object.keys(examples?.actions ?? {}).map((name) => {
    const targets = examples?.actionReferences?.[name] ?? {};
    return [
      name,
      actionExample(resource, name, (field) => `${targets[field]!.target.resource.idPrefix}_${SAMPLE_ULID}`),
    ];
  });
  return {
    create: examples && createExample(resource, 1, sampleId),
    update: examples?.update,
    actions: Object.fromEntries(actions),
  };
}
