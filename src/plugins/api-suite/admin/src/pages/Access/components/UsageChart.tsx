import { Box, Typography } from '@strapi/design-system';
import type { Usage } from '../../../api';
import { useFormat, useT } from '../../../utils/useT';

const WIDTH = 720;
const HEIGHT = 220;
const PAD = { top: 16, right: 16, bottom: 28, left: 44 };

/**
 * Requests a minute over the last hour, drawn as SVG bars (no chart library): the y axis scales
 * to the busiest minute, the x axis marks every quarter of an hour.
 */
export function UsageChart({ usage }: { usage: Usage }) {
  const t = useT();
  const format = useFormat();
  const points = usage.series.slice(-60);
  const max = Math.max(1, ...points.map((point) => point.count));
  const top = niceCeiling(max);
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / Math.max(1, points.length);
  const y = (value: number) => PAD.top + plotHeight - (value / top) * plotHeight;
  // Whole requests only: a half-way line where it falls on a whole number.
  const gridValues = top % 2 === 0 ? [0, top / 2, top] : [0, top];

  return (
    <Box background="neutral0" hasRadius shadow="tableShadow" padding={4}>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        role="img"
        aria-label={t('access.usage.chartLabel', { total: usage.total })}
        data-testid="usage-chart"
        data-total={usage.total}
        style={{ display: 'block', maxHeight: '28rem' }}
      >
        {gridValues.map((value) => (
          <g key={value}>
            <line
              x1={PAD.left}
              x2={WIDTH - PAD.right}
              y1={y(value)}
              y2={y(value)}
              stroke="#dcdce4"
              strokeDasharray={value === 0 ? undefined : '4 4'}
            />
            <text x={PAD.left - 8} y={y(value) + 4} textAnchor="end" fontSize="11" fill="#666687">
              {format.number(value)}
            </text>
          </g>
        ))}
        {points.map((point, index) => {
          const height = (point.count / top) * plotHeight;
          return (
            <rect
              key={point.t}
              x={PAD.left + index * slot + slot * 0.15}
              y={PAD.top + plotHeight - height}
              width={slot * 0.7}
              height={height}
              rx={1.5}
              fill="#4945ff"
            >
              <title>{`${format.time(point.t)}: ${point.count}`}</title>
            </rect>
          );
        })}
        {points.map((point, index) =>
          index % 15 === 0 || index === points.length - 1 ? (
            <text
              key={`label-${point.t}`}
              x={PAD.left + index * slot + slot / 2}
              y={HEIGHT - 8}
              textAnchor="middle"
              fontSize="11"
              fill="#666687"
            >
              {format.time(point.t)}
            </text>
          ) : null
        )}
      </svg>
      {usage.total === 0 && (
        <Box paddingTop={2}>
          <Typography variant="pi" textColor="neutral600">
            {t('access.usage.none')}
          </Typography>
        </Box>
      )}
    </Box>
  );
}

/** A round top for the y axis: 1, 2 or 5 times a power of ten. */
function niceCeiling(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (value <= step * power) return step * power;
  return 10 * power;
}
