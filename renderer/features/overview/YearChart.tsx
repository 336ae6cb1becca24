import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis, type TooltipContentProps } from 'recharts';

export interface YearPoint {
  year: number;
  count: number;
}

function YearTooltip({ active, payload, label }: TooltipContentProps) {
  if (!active || !payload?.[0]) return null;
  const count = Number(payload[0].value ?? 0);
  return (
    <div className="chart-tooltip">
      <strong>{String(label)}</strong>
      <span>
        {count} {count === 1 ? 'breach' : 'breaches'}
      </span>
    </div>
  );
}

/**
 * Colours come from the style sheet (`.chart …`), so both themes apply without re-rendering;
 * the numbers are also in a table beside it for screen readers.
 */
export default function YearChart({ data }: { data: YearPoint[] }) {
  return (
    <div className="chart" aria-hidden="true">
      <BarChart data={data} responsive style={{ width: '100%', height: 220 }} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
        <CartesianGrid vertical={false} className="chart-grid" />
        <XAxis dataKey="year" tickLine={false} axisLine={false} minTickGap={12} className="chart-axis" />
        <YAxis allowDecimals={false} tickLine={false} axisLine={false} width={36} className="chart-axis" />
        <Tooltip content={YearTooltip} cursor={{ className: 'chart-cursor' }} isAnimationActive={false} />
        <Bar dataKey="count" name="Breaches" className="chart-bar" radius={[3, 3, 0, 0]} maxBarSize={36} isAnimationActive={false} />
      </BarChart>
    </div>
  );
}
