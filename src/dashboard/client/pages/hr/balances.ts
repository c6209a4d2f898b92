// Leave balances (the `leaveBalances` query, one employee and year a call),
// asked for many employees at once, and how one reads beside a request.
import type { Query } from '../../ui.js';
import { batchKey, useBatched, type BatchedField } from './batch.js';

export interface LeaveBalance {
  type: string;
  year: number;
  entitledDays: number;
  carriedOverDays: number;
  takenDays: number;
  requestedDays: number;
  remainingDays: number;
}

const LEAVE_BALANCES: BatchedField = {
  field: 'leaveBalances',
  args: { employeeId: 'ID!', date: 'Date' },
  selection: 'data { type year entitledDays carriedOverDays takenDays requestedDays remainingDays }',
};

export interface BalanceAsked {
  employeeId: string;
  /** The year of this date, accrued as of it. */
  date: string;
}

const keyOf = ({ employeeId, date }: BalanceAsked) => batchKey({ employeeId, date });

/**
 * Each employee's balances of the year of its date, as of that date (again
 * when `refresh` changes: after a decision); `of` finds one's.
 */
export function useLeaveBalances(
  asked: BalanceAsked[],
  refresh: unknown = 0,
): Query<unknown> & {
  of(asked: BalanceAsked): LeaveBalance[] | undefined;
} {
  const result = useBatched<{ data: LeaveBalance[] }>(
    LEAVE_BALANCES,
    asked.map(({ employeeId, date }) => ({ employeeId, date })),
    refresh,
  );
  return { ...result, of: (one) => result.data?.get(keyOf(one))?.data };
}

export const days = (count: number) => `${count} ${Math.abs(count) === 1 ? 'day' : 'days'}`;
