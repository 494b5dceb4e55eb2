import { useMemo } from 'react';
import { create } from 'qrcode';

/** The light margin around the code, in modules: the "quiet zone" scanners need (ISO/IEC 18004 asks for 4). */
const QUIET_ZONE = 4;
/** CSS pixels per module: whole pixels keep every module the same size (CSS shrinks it on a narrow screen). */
const MODULE_PX = 4;

/** One SVG path with a 1×1 square per dark module, offset by the quiet zone. */
function darkModules(text: string): { size: number; path: string } {
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  let path = '';
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.get(row, col)) path += `M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`;
    }
  }
  return { size: modules.size + 2 * QUIET_ZONE, path };
}

/**
 * `text` as a QR code, drawn by React as an SVG in the page: no image service, no markup string, so
 * nothing for the page's CSP to allow. Black on white whatever the colour scheme, as scanners expect.
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const { size, path } = useMemo(() => darkModules(text), [text]);
  return (
    <svg
      className="qr-code"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      width={size * MODULE_PX}
      height={size * MODULE_PX}
      shapeRendering="crispEdges"
      xmlns="http://www.w3.org/2000/svg"
    >
      <rect width={size} height={size} fill="#ffffff" />
      <path d={path} fill="#000000" />
    </svg>
  );
}
