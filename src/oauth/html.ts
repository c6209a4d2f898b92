// HTML for the authorization pages: a tagged template that escapes every
// interpolated value (escape-html), so no user- or app-supplied text (an app's
// name, a state parameter, an email) can become markup; and the one layout
// every page shares, with its stylesheet allowed by hash in the page's CSP.
import { createHash } from 'node:crypto';
import escapeHtml from 'escape-html';
import { FAVICON_PATH } from '../http/favicon.js';

/** Markup that is already safe (built by `html`); anything else is escaped. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Interpolation = SafeHtml | string | number | null | undefined | readonly Interpolation[];

function render(value: Interpolation): string {
  if (value === null || value === undefined) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new SafeHtml(out);
}

const STYLE = `
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1f2328;margin:0}
main{max-width:26rem;margin:4rem auto;padding:2rem;background:#fff;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.15)}
h1{font-size:1.35rem;margin:0 0 1rem}
label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input[type=email],input[type=password]{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem;border:1px solid #bbb;border-radius:4px}
button{margin-top:1.25rem;padding:.55rem 1.2rem;font-size:1rem;border-radius:4px;border:1px solid #1f6feb;background:#1f6feb;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#1f2328;border-color:#bbb;margin-left:.5rem}
.error{background:#ffebe9;border:1px solid #ff8182;padding:.5rem .75rem;border-radius:4px}
.scopes li{margin:.35rem 0}.scopes code{font-size:.85rem;color:#57606a}
.muted{color:#57606a;font-size:.9rem}
`;

export const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;
// Built here, not in the template, so that formatting the template cannot change the hashed text.
const STYLE_ELEMENT = new SafeHtml(`<style>${STYLE}</style>`);

/** Every page we serve: UTF-8, for phones too, never a Referer; `head` adds to the head. */
export function htmlDocument({ title, head, body }: { title: string; head?: SafeHtml; body: SafeHtml }): string {
  return (
    '<!doctype html>\n' +
    html`<html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${title}</title>
        <link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml" />
        ${head}
      </head>
      <body>
        ${body}
      </body>
    </html>`.value
  );
}

export function layout(title: string, body: SafeHtml): string {
  return htmlDocument({ title, head: STYLE_ELEMENT, body: html`<main>${body}</main>` });
}
