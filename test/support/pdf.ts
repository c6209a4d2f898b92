// Reading a PDF as a person's viewer does: its text through pdf.js (Mozilla's
// reader, which maps the embedded glyphs back to characters with the fonts'
// ToUnicode maps), and its fonts from the file's font dictionaries.
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** The text of each page, a line per line as pdf.js reads it, cells apart by spaces. */
export async function pdfPages(bytes: Uint8Array): Promise<string[]> {
  // pdf.js takes the buffer over: give it a copy.
  const pdf = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const content = await (await pdf.getPage(n)).getTextContent();
      let text = '';
      for (const item of content.items) {
        if ('str' in item) text += item.str + (item.hasEOL ? '\n' : ' ');
      }
      pages.push(text);
    }
    return pages;
  } finally {
    await pdf.destroy();
  }
}

/** The text of the whole document. */
export const pdfText = async (bytes: Uint8Array) => (await pdfPages(bytes)).join('\n');

/** The 14 fonts a PDF reader must have itself: a file naming one does not carry it. */
export const STANDARD_FONTS = [
  'Times-Roman',
  'Times-Bold',
  'Times-Italic',
  'Times-BoldItalic',
  'Helvetica',
  'Helvetica-Bold',
  'Helvetica-Oblique',
  'Helvetica-BoldOblique',
  'Courier',
  'Courier-Bold',
  'Courier-Oblique',
  'Courier-BoldOblique',
  'Symbol',
  'ZapfDingbats',
];

/**
 * The fonts the file names (/BaseFont) and how many font programs it carries
 * (/FontFile, /FontFile2 for TrueType, /FontFile3 for CFF): pdfkit writes its
 * dictionaries uncompressed (only streams are), so they read as text.
 */
export function pdfFonts(bytes: Uint8Array): { baseFonts: string[]; fontFiles: number } {
  const raw = Buffer.from(bytes).toString('latin1');
  const baseFonts = [...new Set([...raw.matchAll(/\/BaseFont\s*\/([^\s/<>[\]()]+)/g)].map((match) => match[1]!))];
  const fontFiles = [...raw.matchAll(/\/FontFile[23]?\s+\d+\s+\d+\s+R/g)].length;
  return { baseFonts, fontFiles };
}
