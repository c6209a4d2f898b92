// The HR desk: what an HR officer does in a month. Decide leave (inbox), see it
// (calendar, balances), run payroll (hr:payroll) and clock people in and out.
// Its paths keep clear of the record pages' (/hr/leave-requests, /hr/attendance),
// but for a payroll run and its payslips, whose pages are these.
import type { Section } from '../../section.js';
import { LeaveBalancesPage } from './leave-balances.js';
import { LeaveCalendarPage } from './leave-calendar.js';
import { LeaveInboxPage } from './leave-inbox.js';
import { NewPayrollRunPage, PayrollPage } from './payroll.js';
import { PayrollRunPage } from './payroll-run.js';
import { PayslipPage } from './payslip.js';
import { TimeClockPage } from './time-clock.js';

export const hrDesk: Section = {
  title: 'HR',
  links: [
    { href: '/hr/leave/inbox', label: 'Leave inbox', needs: 'hr:read' },
    { href: '/hr/leave/calendar', label: 'Leave calendar', needs: 'hr:read' },
    { href: '/hr/leave/balances', label: 'Leave balances', needs: 'hr:read' },
    { href: '/hr/payroll', label: 'Payroll', needs: 'hr:payroll' },
    { href: '/hr/time-clock', label: 'Time clock', needs: 'hr:read' },
  ],
  // `/hr/payroll-runs/new` before `/hr/payroll-runs/:id`: the first route that matches wins.
  routes: [
    { path: '/hr/leave/inbox', page: LeaveInboxPage, needs: 'hr:read' },
    { path: '/hr/leave/calendar', page: LeaveCalendarPage, needs: 'hr:read' },
    { path: '/hr/leave/balances', page: LeaveBalancesPage, needs: 'hr:read' },
    { path: '/hr/payroll', page: PayrollPage, needs: 'hr:payroll' },
    { path: '/hr/payroll-runs/new', page: NewPayrollRunPage, needs: 'hr:payroll' },
    { path: '/hr/payroll-runs/:id', page: PayrollRunPage, needs: 'hr:payroll' },
    { path: '/hr/payroll-runs/:id/payslips/:employeeId', page: PayslipPage, needs: 'hr:payroll' },
    { path: '/hr/time-clock', page: TimeClockPage, needs: 'hr:read' },
  ],
};
