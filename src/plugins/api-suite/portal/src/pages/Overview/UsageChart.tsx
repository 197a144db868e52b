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
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`Requests in the last hour: ${total}`} preserveAspectRatio="none">
        <line x1="0" y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} className="chart-axis" vectorEffect="non-scaling-stroke" />
        {points.map((point, index) => {
          const height = (point.count / max) * (HEIGHT - 10);
          return (
            <rect
              key={point.t}
              x={index * step + 1}
              y={HEIGHT - height}
              width={Math.max(step - 2, 1)}
              height={height}
              className="chart-bar"
            >
              <title>{`${new Date(point.t).toISOString().slice(11, 16)} UTC: ${point.count}`}</title>
            </rect>
          );
        })}
      </svg>
      {/* Outside the SVG, which stretches to the card's width and would stretch its text too. */}
      <div className="chart-scale" aria-hidden="true">
        <span>60 min ago</span>
        <span>now</span>
      </div>
      <figcaption>
        <span data-testid="usage-total">{total}</span> {total === 1 ? 'request' : 'requests'} in the last hour (peak{' '}
        {max === 1 && total === 0 ? 0 : max} a minute)
      </figcaption>
    </figure>
  );
}
