// The fonts documents are set in: DejaVu Sans Condensed, regular and bold,
// from the dejavu-fonts-ttf package (Bitstream Vera licence: free to embed and
// redistribute). Its one file covers Latin with its extensions, Greek,
// Cyrillic and the currency signs (Zoë Müller, Łódź, €, ₴), which the PDF
// standard fonts cannot print. pdfkit embeds the subset of glyphs a document
// uses. Read from disk and parsed once per process, on the first document:
// parsing costs more than laying out a whole invoice.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';

const require = createRequire(import.meta.url);

export interface DocumentFonts {
  regular: fontkit.Font;
  bold: fontkit.Font;
}

function load(file: string): fontkit.Font {
  const font = fontkit.create(readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`)));
  if (!('unitsPerEm' in font)) throw new Error(`${file} is a font collection, not a font`);
  return font;
}

let fonts: DocumentFonts | undefined;

export function documentFonts(): DocumentFonts {
  fonts ??= { regular: load('DejaVuSansCondensed.ttf'), bold: load('DejaVuSansCondensed-Bold.ttf') };
  return fonts;
}
