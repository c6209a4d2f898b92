import 'reflect-metadata';
// What a declaration owns, refused at load when two would claim it: its id
// prefix (no other declaration's, none of src/ids.ts's) and its event names
// (the catalogue is assembled from the declarations and the system events).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assembleCatalogue, EVENT_TYPES } from '../src/events/catalogue.js';
import { event } from '../src/events/event.js';
import { SYSTEM_EVENTS } from '../src/events/system-events.js';
import { contacts } from '../src/graphql/crm/contact/index.js';
import { invoicePaid, invoices } from '../src/graphql/finance/invoice/index.js';
import { declaredResources, declareResource } from '../src/graphql/kit/declared.js';
import type { RuleContext } from '../src/graphql/kit/lifecycle.js';
import type { Resource } from '../src/graphql/kit/resource.js';
import { updateRecordFromRule } from '../src/graphql/kit/store.js';

class Stray {}

/** A declaration like the contacts' at another path, under another type, with this prefix. */
const stray = (idPrefix: string, events: Resource['events'] = undefined) =>
  ({ ...contacts.resource, type: Stray, path: 'strays', fullPath: '/crm/strays', idPrefix, events }) as Resource;

describe('id prefixes', () => {
  it("refuses another declaration's prefix, naming both", () => {
    expect(() => declareResource(stray('con'))).toThrow("Stray's idPrefix 'con' is already Contact's");
  });

  it("refuses a prefix of src/ids.ts's kinds, naming the kind", () => {
    expect(() => declareResource(stray('usr'))).toThrow("Stray's idPrefix 'usr' is already the prefix of user ids");
    expect(() => declareResource(stray('evt'))).toThrow('already the prefix of event ids');
  });

  it('refuses a prefix that is not lower-case letters', () => {
    for (const prefix of ['', 'Str', 'st_r', 'x', 'a.b']) {
      expect(() => declareResource(stray(prefix)), prefix).toThrow('must be 2 to 8 lower-case letters');
    }
  });

  it('each declared resource has its own', () => {
    const prefixes = [...declaredResources().values()].map((resource) => resource.idPrefix);
    expect(prefixes).not.toContain('');
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });
});

describe('event names', () => {
  const declared = () => [...declaredResources().values()];

  it('the catalogue holds each declared event once, with the area read scope unless the event names its own', () => {
    const catalogue = assembleCatalogue(declared(), SYSTEM_EVENTS);
    expect(catalogue.get('invoice.paid')).toEqual({ ...invoicePaid, scope: 'finance:read', area: 'finance' });
    expect(catalogue.get('user.created')).toMatchObject({ scope: 'admin', area: 'system' });
    const audited = stray('str', { created: event('stray.created', 'A stray was made.', { scope: 'admin' }) });
    expect(assembleCatalogue([audited], []).get('stray.created')).toMatchObject({ scope: 'admin', area: 'system' });
  });

  it("refuses a name declared twice: by two resources, or by a resource and the system's", () => {
    const again = stray('str', { created: event('contact.created', 'A contact was created again.') });
    expect(() => assembleCatalogue([...declared(), again], SYSTEM_EVENTS)).toThrow(
      'the event type contact.created is declared twice: by Contact and by Stray',
    );
    const system = stray('str', { created: event('user.created', 'A user was made.') });
    expect(() => assembleCatalogue([system], SYSTEM_EVENTS)).toThrow(
      'the event type user.created is declared twice: by Stray and by the system events',
    );
    // Used by reference from another resource's rule (a payment raises invoice.paid), it is declared once.
    expect(invoices.resource.events?.others).toContain(invoicePaid);
  });

  it('each event type is written once in src/, where it is declared; every writer names the declaration', () => {
    // The dashboard's client is built from the schema and speaks the wire's words; generated code is not ours.
    const skipped = ['src/dashboard/client', 'src/generated'];
    const sources = readdirSync('src', { recursive: true, encoding: 'utf8' })
      .map((file) => path.join('src', file))
      .filter((file) => /\.tsx?$/.test(file) && !skipped.some((folder) => file.startsWith(folder)));
    const texts = sources.map((file) => [file, readFileSync(file, 'utf8')] as const);
    const writtenTwice = EVENT_TYPES.flatMap((type) => {
      const quoted = new RegExp(`['"]${type.replace('.', '\\.')}['"]`, 'g');
      const places = texts.flatMap(([file, text]) => (text.match(quoted) ?? []).map(() => file));
      return places.length === 1 ? [] : [`${type}: ${places.length} times (${places.join(', ')})`];
    });
    expect(writtenTwice).toEqual([]);
  });

  it("a rule raises only events its target resource declares (invoice.paid is the invoice's)", async () => {
    const rules: RuleContext = {
      organizationId: 'org_x',
      actor: { type: 'system', id: null },
      query: () => Promise.reject(new Error('nothing is written')),
    };
    const update = (type: string) =>
      updateRecordFromRule(rules, invoices.resource, { id: 'inv_x', changes: {}, events: [{ type }] });
    await expect(update('invoice.lost')).rejects.toThrow("Invoice declares no event 'invoice.lost'");
    await expect(update('payment.received')).rejects.toThrow("Invoice declares no event 'payment.received'");
    await expect(update(invoicePaid.type)).rejects.toThrow('nothing is written');
  });
});
