import type { UsageReport } from '../../api';

const WIDTH = 600;
const HEIGHT = 140;

/**
 * The last hour, a bar a minute, drawn as SVG (no inline styles: the CSP refuses them). Its total
 * is also an attribute, which the browser tests read.
 */
export function UsageChart({ usage }: { usage: UsageReport }) {
  const points = usage.series.slice(-60);
  const total = points.reduce((sum, point) => sum + point.count, 0);
  const max = Math.max(1, ...points.map((point) => point.count));
  const step = WIDTH / Math.max(points.length, 1);
  return (
    <figure className="chart" data-testid="usage-chart" data-total={total}>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT + 20}`} role="img" aria-label={`Requests in the last hour: ${total}`} preserveAspectRatio="none">
        <line x1="0" y1={HEIGHT} x2={WIDTH} y2={HEIGHT} className="chart-axis" />
        {points.map((point, index) => {
          const height = (point.count / max) * (HEIGHT - 10);
          return (
            <rect key={point.t} x={index * step + 1} y={HEIGHT - height} width={Math.max(step - 2, 1)} height={height} className="chart-bar">
              <title>{`${new Date(point.t).toISOString().slice(11, 16)} UTC: ${point.count}`}</title>
            </rect>
          );
        })}
        <text x="0" y={HEIGHT + 16} className="chart-label">
          60 min ago
        </text>
        <text x={WIDTH} y={HEIGHT + 16} className="chart-label" textAnchor="end">
          now
        </text>
      </svg>
      <figcaption>
        <span data-testid="usage-total">{total}</span> requests in the last hour (peak {max === 1 && total === 0 ? 0 : max} a minute)
      </figcaption>
    </figure>
  );
}
