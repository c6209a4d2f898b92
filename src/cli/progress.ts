// How far an export or an import is, on stderr: a bar redrawn in place on a terminal, plain
// lines (at most one a second) otherwise, nothing when `quiet`.
export interface Progress {
  update(rowsWritten: number, rowsTotal: number | null): void;
  note(text: string): void;
  done(): void;
}

const WIDTH = 30;

export function progressOn(
  stream: NodeJS.WritableStream & { isTTY?: boolean },
  quiet: boolean,
  verb = 'exported',
): Progress {
  const tty = stream.isTTY === true;
  let drawn = false;
  let lastLine = 0;
  let lastRows = -1;
  const describe = (rows: number, total: number | null) =>
    total ? `${rows.toLocaleString('en')} / ${total.toLocaleString('en')} rows` : `${rows.toLocaleString('en')} rows`;
  return {
    update(rows, total) {
      if (tty) {
        const share = total ? Math.min(1, rows / total) : 0;
        const filled = Math.round(share * WIDTH);
        const bar = `[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${String(Math.round(share * 100)).padStart(3)}%`;
        stream.write(`\r${bar} ${describe(rows, total)}\x1b[K`); // clear what a longer line left
        drawn = true;
      } else if (!quiet && rows !== lastRows && Date.now() - lastLine >= 1000) {
        stream.write(`${verb} ${describe(rows, total)}\n`);
        lastLine = Date.now();
        lastRows = rows;
      }
    },
    note(text) {
      if (quiet && !tty) return;
      stream.write(`${drawn ? '\n' : ''}${text}\n`);
      drawn = false;
    },
    done() {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}
