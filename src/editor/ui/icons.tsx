/** Stroke icons of the editor's toolbar (24 × 24, currentColor). */
import type { SVGProps } from 'react';

const PATHS = {
  open: 'M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v1M3 7v11a2 2 0 0 0 2 2h13l3-8H7l-3 8',
  undo: 'M9 14L4 9l5-5M4 9h11a5 5 0 0 1 0 10h-3',
  redo: 'M15 14l5-5-5-5M20 9H9a5 5 0 0 0 0 10h3',
  fit: 'M8 3H5a2 2 0 0 0-2 2v3M21 8V5a2 2 0 0 0-2-2h-3M3 16v3a2 2 0 0 0 2 2h3M16 21h3a2 2 0 0 0 2-2v-3M9 9h6v6H9z',
  front: 'M4 7l8-4 8 4v10l-8 4-8-4zM4 7l8 4 8-4M12 11v10M7 13.5v3M17 13.5v3',
  back: 'M4 7l8-4 8 4v10l-8 4-8-4zM4 7l8 4 8-4M12 11v10',
  left: 'M4 7l8-4 8 4v10l-8 4-8-4zM4 7l8 4v10',
  right: 'M4 7l8-4 8 4v10l-8 4-8-4zM20 7l-8 4v10',
  top: 'M4 7l8-4 8 4-8 4zM4 7v10l8 4 8-4V7M12 11v10',
  bottom: 'M4 17l8 4 8-4-8-4zM4 17V7l8-4 8 4v10M12 3v10',
  bite: 'M4 8c2-3 14-3 16 0M4 16c2 3 14 3 16 0M12 10v4M9 12l3 2 3-2',
  clip: 'M4 20L20 4M6 6h5v5H6zM13 13h5v5h-5z',
  measure: 'M3 17L17 3l4 4L7 21zM7 13l2 2M10 10l2 2M13 7l2 2',
  undercut: 'M12 3v12M8 11l4 4 4-4M4 21c2-4 4-6 8-6s6 2 8 6',
  heatmap: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM12 7a5 5 0 1 0 0 10 5 5 0 0 0 0-10zM12 11a1 1 0 1 0 0 2 1 1 0 0 0 0-2z',
  straighten: 'M4 12h16M12 4v16M6 6l12 12',
  smooth: 'M3 17c3-6 6 2 9-4s6 2 9-4M9 21h6',
  base: 'M4 15c2-6 14-6 16 0v3H4zM8 12V9M12 11V8M16 12V9',
  wire: 'M3 14c3-6 6-6 9 0s6 6 9 0M3 14h2M19 14h2',
  slot: 'M3 15c2-5 16-5 18 0v4H3zM7 13.5l1 3h8l1-3M5 8h14',
  export: 'M12 3v12M7 10l5 5 5-5M4 21h16',
  eye: 'M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12zM12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6z',
  eyeOff: 'M3 3l18 18M10.6 6.1A10 10 0 0 1 12 6c6 0 10 6 10 6a17 17 0 0 1-3 3.4M6.6 6.6C3.8 8.4 2 12 2 12s4 7 10 7a9.6 9.6 0 0 0 4.4-1M9.9 9.9a3 3 0 0 0 4.2 4.2',
  trash: 'M3 6h18M8 6V4h8v2M6 6l1 14h10l1-14',
  home: 'M3 10l9-7 9 7v10a2 2 0 0 1-2 2h-4v-7H9v7H5a2 2 0 0 1-2-2z',
  check: 'M20 6L9 17l-5-5',
  alert: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zM12 8v4M12 16h.01',
  cloud: 'M7 18a5 5 0 0 1-.6-10A6 6 0 0 1 18 9a4.5 4.5 0 0 1-.5 9z',
  x: 'M18 6L6 18M6 6l12 12',
  device: 'M3 15h18v5H3zM6 15V9h8v6M14 11h4a3 3 0 0 1 3 3v1M9 9V5M7 17.5h.01M17 17.5h2',
  play: 'M7 4l13 8-13 8z',
  pause: 'M7 4h3v16H7zM14 4h3v16h-3z',
  step: 'M5 4l10 8-10 8zM18 4v16',
  restart: 'M4 12a8 8 0 1 0 3-6.2M4 4v5h5',
  send: 'M4 12l16-8-6 16-3-7z',
  align: 'M5 5h4v4H5zM15 15h4v4h-4zM9 7h6a2 2 0 0 1 2 2v6M7 9v6a2 2 0 0 0 2 2h6',
  submit: 'M5 12l5 5L20 7M4 21h16',
  rerun: 'M20 12a8 8 0 1 1-3-6.2M20 4v5h-5',
  teeth: 'M6 4c2-1 4 0 6 1 2-1 4-2 6-1 2 1 2 5 1 8-1 2-1 7-3 7s-2-5-4-5-2 5-4 5-2-5-3-7c-1-3-1-7 1-8z',
  teethEdit: 'M5 4c2-1 3 0 5 1 2-1 3-2 5-1 2 1 2 5 1 8-1 2-1 6-3 6s-1-4-3-4-1 4-3 4-2-4-3-6c-1-3-1-7 1-8zM15 21l6-6 2 2-6 6h-2z',
  scan: 'M4 8V5a1 1 0 0 1 1-1h3M16 4h3a1 1 0 0 1 1 1v3M20 16v3a1 1 0 0 1-1 1h-3M8 20H5a1 1 0 0 1-1-1v-3M7 12c2-3 8-3 10 0',
} as const;

export type EditorIconName = keyof typeof PATHS;

export function EditorIcon({ name, className, ...rest }: { name: EditorIconName } & SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" className={className} {...rest}>
      <path d={PATHS[name]} />
    </svg>
  );
}
