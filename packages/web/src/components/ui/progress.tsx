export interface ProgressProps {
  /** 0..1 */
  value: number;
  label: string;
}

/** A native <progress>: its value is exposed to assistive technology without extra ARIA. */
export function Progress({ value, label }: ProgressProps) {
  const percent = Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div className="progress">
      <div className="progress-text">
        <span>{label}</span>
        <span>{percent}%</span>
      </div>
      <progress max={100} value={percent} aria-label={label}>
        {percent}%
      </progress>
    </div>
  );
}
