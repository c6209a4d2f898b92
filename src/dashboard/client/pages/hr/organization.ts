// The organization as the HR pages need it: its time zone (where "today" is),
// its working week (the calendar's days off) and the names a payslip prints.
import { useQuery } from '../../ui.js';

export interface Organization {
  name: string;
  legalName: string | null;
  address: string | null;
  timeZone: string;
  workingDays: number[];
}

export const ORGANIZATION = `organization { name legalName address timeZone workingDays }`;

export function useOrganization() {
  return useQuery<{ organization: Organization }>(`query HrOrganization { ${ORGANIZATION} }`);
}
