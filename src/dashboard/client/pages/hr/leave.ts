// How a stretch of leave reads: "2 Mar 2026" for a day, "2 Mar 2026 – 6 Mar 2026" for more.
import { formatDate } from '../../ui.js';

export const leaveDates = ({ from, to }: { from: string; to: string }) =>
  from === to ? formatDate(from) : `${formatDate(from)} – ${formatDate(to)}`;
