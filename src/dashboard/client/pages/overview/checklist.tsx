// Getting started (admin, while something is left): make an API key, add a
// webhook, invite someone; each ticked once done, each a link to where it is done.
import { Link, StatusBadge, type Query } from '../../ui.js';
import type { AdminOverview } from './admin-data.js';

interface Step {
  label: string;
  href: string;
  done: boolean;
  why: string;
}

export function stepsOf({ apiKeys, webhooks, users }: AdminOverview): Step[] {
  return [
    {
      label: 'Make an API key',
      href: '/settings/api-keys/new',
      done: apiKeys.pagination.total > 0,
      why: 'for your scripts and integrations to call the API',
    },
    {
      label: 'Add a webhook',
      href: '/developers/webhooks',
      done: webhooks.pagination.total > 0,
      why: 'to have events sent to your systems as they happen',
    },
    {
      label: 'Invite someone',
      href: '/settings/users/new',
      done: users.pagination.total > 1,
      why: 'a colleague, with the rights their work needs',
    },
  ];
}

export function GettingStarted({ query }: { query: Query<AdminOverview> }) {
  if (!query.data) return null;
  const steps = stepsOf(query.data);
  const done = steps.filter((step) => step.done).length;
  if (done === steps.length) return null;
  return (
    <section class="panel overview-card getting-started" aria-labelledby="getting-started-title">
      <h2 id="getting-started-title">Getting started</h2>
      <p class="muted">
        {done} of {steps.length} done
      </p>
      <ol class="checklist">
        {steps.map((step) => (
          <li key={step.label} class={step.done ? 'done' : undefined}>
            <StatusBadge value={step.done ? 'completed' : 'pending'} label={step.done ? 'Done' : 'To do'} />{' '}
            <Link href={step.href}>{step.label}</Link> <span class="muted">— {step.why}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
