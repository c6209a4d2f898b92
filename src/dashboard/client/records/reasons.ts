// Why a button is not available, in words: "Only a requested leave request
// can be approved; this one is approved." Made from the lifecycle's states and
// the action's name, so a new resource's buttons explain themselves too.
import { withArticle } from '../../../graphql/kit/article.js';
import { humanize } from '../ui.js';
import type { CatalogueResource } from './catalogue.js';

/** Verbs whose last consonant doubles (submit: submitted). */
const DOUBLED = new Set(['submit', 'cancel', 'commit', 'admit', 'permit', 'refer', 'transfer', 'ship', 'stop', 'plan']);

/** `Approve` -> approved, `Clock out` -> clocked out, `Submit` -> submitted, `Reimburse` -> reimbursed. */
export function participle(words: string): string {
  const [verb = '', ...rest] = words.toLowerCase().split(' ');
  let done: string;
  if (verb.endsWith('e')) done = `${verb}d`;
  else if (/[^aeiou]y$/.test(verb)) done = `${verb.slice(0, -1)}ied`;
  else if (DOUBLED.has(verb)) done = `${verb}${verb.slice(-1)}ed`;
  else done = `${verb}ed`;
  return [done, ...rest].join(' ');
}

/** "Only a draft or open invoice can be voided; this one is paid." */
export function onlyIn(entry: CatalogueResource, states: readonly string[], done: string, state: unknown): string {
  const which = states.map((s) => humanize(s).toLowerCase()).join(' or ');
  const now = typeof state === 'string' ? `; this one is ${humanize(state).toLowerCase()}` : '';
  return `Only ${withArticle(which)} ${entry.noun[0]} can be ${done}${now}.`;
}
