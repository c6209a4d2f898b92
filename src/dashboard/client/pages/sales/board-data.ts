// The pipeline board's data: the queries (one request for the whole board:
// each stage's first page and the server's sums) and the pure steps that change
// the board's state (a card moved, a move put back, a page appended).
//
// Each column is sorted by updatedAt, newest first, and "more" reads the page
// after the last one loaded by its cursor (a keyset on updatedAt and id): a deal
// moved in meanwhile is newer than that and not read twice, one moved out is
// simply not there, so nothing is skipped or repeated whatever moved.
import { graphql } from '../../api.js';

/** The DealStage enum's order (the server's lifecycle; the test checks it against dealPipeline). */
export const STAGES = ['lead', 'qualified', 'proposal', 'negotiation', 'won', 'lost'] as const;
export type Stage = (typeof STAGES)[number];

/** Cards fetched per column at a time. */
export const PAGE_SIZE = 50;

export interface BoardDeal {
  id: string;
  title: string;
  amount: number;
  currency: string;
  stage: Stage;
  contact: { id: string; firstName: string | null; lastName: string | null; email: string } | null;
}

export interface CurrencySum {
  currency: string;
  amount: number;
}

export interface Column {
  stage: Stage;
  deals: BoardDeal[];
  /** How many deals the stage holds on the server (all of them, not only those shown). */
  total: number;
  /** The cursor of the column's next page; null when every deal is shown. */
  next: string | null;
  /** Every deal of the stage summed per currency, never across currencies. */
  sums: CurrencySum[];
}

export type Board = Record<Stage, Column>;

interface DealPage {
  data: BoardDeal[];
  pagination: { total: number; next: string | null };
}

interface StageSummary {
  stage: Stage;
  count: number;
  amounts: CurrencySum[];
}

const CARD = 'id title amount currency stage contact { id firstName lastName email }';
const SUMMARY = 'dealPipeline { stage count amounts { currency amount } }';

// One alias per stage (six, under the server's alias limit), and the sums beside them.
const BOARD = `query PipelineBoard {
  ${SUMMARY}
  ${STAGES.map(
    (stage) =>
      `${stage}: deals(stage: ${stage}, sort: updatedAt_desc, limit: ${PAGE_SIZE}) { data { ${CARD} } pagination { total next } }`,
  ).join('\n  ')}
}`;

const SUMS = `query PipelineSums { ${SUMMARY} }`;

const NEXT_PAGE = `query PipelineColumnMore($stage: DealStage!, $after: String!) {
  deals(stage: $stage, sort: updatedAt_desc, after: $after, limit: ${PAGE_SIZE}) { data { ${CARD} } pagination { total next } }
}`;

const MOVE = `mutation MoveDeal($id: ID!, $input: UpdateDealInput!) { updateDeal(id: $id, input: $input) { ${CARD} } }`;

export async function loadBoard(): Promise<Board> {
  const data = await graphql<Record<Stage, DealPage> & { dealPipeline: StageSummary[] }>(BOARD);
  const board = {} as Board;
  for (const stage of STAGES) {
    const { data: deals, pagination } = data[stage];
    board[stage] = { stage, deals, total: pagination.total, next: pagination.next, sums: [] };
  }
  return withSums(board, data.dealPipeline);
}

/** The server's counts and sums, for after a move (the shown cards stay as they are). */
export async function loadSums(): Promise<StageSummary[]> {
  return (await graphql<{ dealPipeline: StageSummary[] }>(SUMS)).dealPipeline;
}

export function withSums(board: Board, summaries: StageSummary[]): Board {
  const next = { ...board };
  for (const summary of summaries) {
    const column = next[summary.stage];
    if (column) next[summary.stage] = { ...column, total: summary.count, sums: summary.amounts };
  }
  return next;
}

/**
 * The next cards of a column, after its last page's cursor, without any already
 * on the board (another person may have moved one meanwhile); and the cursor after them.
 */
export async function loadMore(
  stage: Stage,
  after: string,
  shown: ReadonlySet<string>,
): Promise<{ deals: BoardDeal[]; next: string | null }> {
  const { deals } = await graphql<{ deals: DealPage }>(NEXT_PAGE, { stage, after });
  return { deals: deals.data.filter((deal) => !shown.has(deal.id)), next: deals.pagination.next };
}

export async function saveStage(id: string, stage: Stage): Promise<BoardDeal> {
  return (await graphql<{ updateDeal: BoardDeal }>(MOVE, { id, input: { stage } })).updateDeal;
}

export function findDeal(board: Board, id: string): { deal: BoardDeal; index: number } | undefined {
  for (const stage of STAGES) {
    const index = board[stage].deals.findIndex((deal) => deal.id === id);
    if (index >= 0) return { deal: board[stage].deals[index]!, index };
  }
  return undefined;
}

function addSum(sums: CurrencySum[], currency: string, amount: number): CurrencySum[] {
  const found = sums.some((sum) => sum.currency === currency);
  const next = found
    ? sums.map((sum) => (sum.currency === currency ? { currency, amount: sum.amount + amount } : sum))
    : [...sums, { currency, amount }];
  return next.sort((a, b) => a.currency.localeCompare(b.currency));
}

/**
 * The board with a deal moved to `to` at `index` (the top by default), its
 * count and sum taken from its column and added to the new one, until the
 * server's sums arrive.
 */
export function moveCard(board: Board, id: string, to: Stage, index = 0): Board {
  const found = findDeal(board, id);
  if (!found || found.deal.stage === to) return board;
  const { deal } = found;
  const from = board[deal.stage];
  const target = board[to];
  const moved = { ...deal, stage: to };
  const deals = [...target.deals];
  deals.splice(Math.min(index, deals.length), 0, moved);
  return {
    ...board,
    [from.stage]: {
      ...from,
      deals: from.deals.filter((d) => d.id !== id),
      total: from.total - 1,
      sums: addSum(from.sums, deal.currency, -deal.amount),
    },
    [to]: { ...target, deals, total: target.total + 1, sums: addSum(target.sums, deal.currency, deal.amount) },
  };
}

/** The board with a deal's card replaced by the server's answer (same place). */
export function replaceCard(board: Board, deal: BoardDeal): Board {
  const column = board[deal.stage];
  if (!column) return board;
  return { ...board, [deal.stage]: { ...column, deals: column.deals.map((d) => (d.id === deal.id ? deal : d)) } };
}

export function appendCards(board: Board, stage: Stage, deals: BoardDeal[], next: string | null): Board {
  return { ...board, [stage]: { ...board[stage], deals: [...board[stage].deals, ...deals], next } };
}

/** A contact as a card shows it. */
export const contactLabel = (contact: BoardDeal['contact']) =>
  contact ? [contact.firstName, contact.lastName].filter(Boolean).join(' ') || contact.email : undefined;
