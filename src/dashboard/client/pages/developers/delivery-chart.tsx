// Deliveries per hour over the last day, succeeded and failed stacked, drawn
// as SVG by Preact (no chart library; no style attribute, which the CSP
// refuses: sizes are SVG attributes, colours CSS classes). The hours are
// labelled under the bars (every fourth, in the viewer's time); each hour shows
// its counts on hover and on keyboard focus (one tab stop: the arrow keys, Home
// and End move between hours), and is named with them for screen readers. The
// hours with deliveries are also a table.
import { useState } from 'preact/hooks';
import { formatDateTime } from '../../ui.js';
import './developers.css';

export interface DeliveryHour {
  hour: string;
  succeeded: number;
  failed: number;
}

const WIDTH = 480;
const HEIGHT = 120;
const TOP = 6;
/** Every how many hours a label is written under the bars. */
const LABEL_EVERY = 4;

const hourFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const hourLabel = (hour: string) => hourFormat.format(new Date(hour));

/** "14:00 to 15:00: 3 succeeded, 1 failed" */
function hourSummary(hour: DeliveryHour): string {
  const end = new Date(new Date(hour.hour).getTime() + 3_600_000).toISOString();
  return `${hourLabel(hour.hour)} to ${hourLabel(end)}: ${hour.succeeded} succeeded, ${hour.failed} failed`;
}

export function DeliveryChart({ hours }: { hours: DeliveryHour[] }) {
  const [active, setActive] = useState<number>();
  const [focusable, setFocusable] = useState(Math.max(0, hours.length - 1));
  /** The hour holding keyboard focus, shown again once the pointer leaves. */
  const [focused, setFocused] = useState<number>();
  const succeeded = hours.reduce((sum, hour) => sum + hour.succeeded, 0);
  const failed = hours.reduce((sum, hour) => sum + hour.failed, 0);
  const most = Math.max(1, ...hours.map((hour) => hour.succeeded + hour.failed));
  const slot = WIDTH / Math.max(1, hours.length);
  const scale = (count: number) => (count / most) * (HEIGHT - TOP);
  const summary = `Deliveries per hour over the last ${hours.length} hours: ${succeeded} succeeded, ${failed} failed.`;
  const busy = hours.filter((hour) => hour.succeeded + hour.failed > 0);
  const shown = active === undefined ? undefined : hours[active];

  const move = (event: KeyboardEvent, index: number) => {
    const next =
      event.key === 'ArrowRight' || event.key === 'ArrowUp'
        ? index + 1
        : event.key === 'ArrowLeft' || event.key === 'ArrowDown'
          ? index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? hours.length - 1
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    const target = Math.min(hours.length - 1, Math.max(0, next));
    setFocusable(target);
    setActive(target);
    (event.currentTarget as SVGGElement).parentElement?.querySelectorAll<SVGGElement>('g.chart-hour')[target]?.focus();
  };

  return (
    <section aria-labelledby="chart-title" class="chart">
      <h2 id="chart-title">Last {hours.length} hours</h2>
      <p class="chart-readout" aria-hidden="true">
        {shown ? hourSummary(shown) : `Most in an hour: ${most}. Point at or focus an hour for its counts.`}
      </p>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="group"
        aria-label={summary}
        class="chart-svg"
        preserveAspectRatio="none"
        onMouseLeave={() => setActive(focused)}
      >
        <line x1={0} x2={WIDTH} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} class="chart-axis" />
        {hours.map((hour, i) => {
          const ok = scale(hour.succeeded);
          const bad = scale(hour.failed);
          const x = i * slot;
          return (
            <g
              key={hour.hour}
              class={`chart-hour${active === i ? ' active' : ''}`}
              role="img"
              aria-label={hourSummary(hour)}
              tabIndex={i === focusable ? 0 : -1}
              onMouseEnter={() => setActive(i)}
              onFocus={() => {
                setActive(i);
                setFocused(i);
                setFocusable(i);
              }}
              onBlur={() => {
                setActive(undefined);
                setFocused(undefined);
              }}
              onKeyDown={(event) => move(event, i)}
            >
              <rect x={x} width={slot} y={0} height={HEIGHT} class="chart-slot" />
              {hour.succeeded > 0 && (
                <rect x={x + 1} width={slot - 2} y={HEIGHT - ok} height={ok} class="bar-succeeded" />
              )}
              {hour.failed > 0 && (
                <rect x={x + 1} width={slot - 2} y={HEIGHT - ok - bad} height={bad} class="bar-failed" />
              )}
            </g>
          );
        })}
      </svg>
      <ol class="chart-hours" aria-hidden="true">
        {hours.map((hour, i) => (
          <li key={hour.hour}>{i % LABEL_EVERY === 0 ? hourLabel(hour.hour) : ''}</li>
        ))}
      </ol>
      <p class="chart-legend" aria-hidden="true">
        <span class="key key-succeeded" /> {succeeded} succeeded <span class="key key-failed" /> {failed} failed
      </p>
      {busy.length > 0 && (
        <details>
          <summary>The hours with deliveries, as a table</summary>
          <table>
            <caption class="visually-hidden">Deliveries per hour</caption>
            <thead>
              <tr>
                <th scope="col">Hour from</th>
                <th scope="col" class="number">
                  Succeeded
                </th>
                <th scope="col" class="number">
                  Failed
                </th>
              </tr>
            </thead>
            <tbody>
              {busy.map((hour) => (
                <tr key={hour.hour}>
                  <td>{formatDateTime(hour.hour)}</td>
                  <td class="number">{hour.succeeded}</td>
                  <td class="number">{hour.failed}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </section>
  );
}
