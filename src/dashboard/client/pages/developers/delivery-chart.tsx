// Deliveries per hour over the last day, succeeded and failed stacked, drawn
// as SVG by Preact (no chart library; no style attribute, which the CSP
// refuses: sizes are SVG attributes, colours CSS classes). Screen readers get
// a summary as the image's label and the hours with deliveries as a table.
import { formatDateTime } from '../../ui.js';

export interface DeliveryHour {
  hour: string;
  succeeded: number;
  failed: number;
}

const WIDTH = 480;
const HEIGHT = 120;
const AXIS = 16;

export function DeliveryChart({ hours }: { hours: DeliveryHour[] }) {
  const succeeded = hours.reduce((sum, hour) => sum + hour.succeeded, 0);
  const failed = hours.reduce((sum, hour) => sum + hour.failed, 0);
  const most = Math.max(1, ...hours.map((hour) => hour.succeeded + hour.failed));
  const slot = WIDTH / Math.max(1, hours.length);
  const scale = (count: number) => (count / most) * (HEIGHT - AXIS);
  const summary = `Deliveries per hour over the last ${hours.length} hours: ${succeeded} succeeded, ${failed} failed.`;
  const busy = hours.filter((hour) => hour.succeeded + hour.failed > 0);
  return (
    <section aria-labelledby="chart-title" class="chart">
      <h2 id="chart-title">Last {hours.length} hours</h2>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={summary}
        class="chart-svg"
        preserveAspectRatio="none"
      >
        <line x1={0} x2={WIDTH} y1={HEIGHT - AXIS} y2={HEIGHT - AXIS} class="chart-axis" />
        {hours.map((hour, i) => {
          const ok = scale(hour.succeeded);
          const bad = scale(hour.failed);
          const x = i * slot + 1;
          const base = HEIGHT - AXIS;
          return (
            <g key={hour.hour}>
              {hour.succeeded > 0 && <rect x={x} width={slot - 2} y={base - ok} height={ok} class="bar-succeeded" />}
              {hour.failed > 0 && <rect x={x} width={slot - 2} y={base - ok - bad} height={bad} class="bar-failed" />}
            </g>
          );
        })}
      </svg>
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
