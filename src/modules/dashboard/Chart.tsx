/**
 * A uPlot chart that fills its box: created once per data/options change, resized (100 ms
 * debounce) when its box changes, redrawn in the theme's colours when the theme changes.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { onThemeChange } from '../../ui/theme.ts';

export interface ChartProps {
  /** Builds the options for a width and height (colours are read when called). */
  options: (size: { width: number; height: number }) => uPlot.Options;
  data: uPlot.AlignedData;
  height: number;
  label: string;
}

export function Chart({ options, data, height, label }: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const optionsRef = useRef(options);
  optionsRef.current = options;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let plot: uPlot | null = null;
    const build = () => {
      plot?.destroy();
      const width = Math.max(120, el.clientWidth);
      plot = new uPlot(optionsRef.current({ width, height }), data, el);
    };
    build();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new ResizeObserver(() => {
      clearTimeout(timer);
      timer = setTimeout(() => plot?.setSize({ width: Math.max(120, el.clientWidth), height }), 100);
    });
    observer.observe(el);
    const off = onThemeChange(build);
    return () => {
      clearTimeout(timer);
      observer.disconnect();
      off();
      plot?.destroy();
    };
    // A new label means a new language: redraw with its names and date formats.
  }, [data, height, label]);

  return <div ref={box} role="img" aria-label={label} className="w-full min-w-0" style={{ minHeight: height }} />;
}

/** The value of a CSS colour variable of the page (theme colours). */
export function cssColor(name: string, fallback: string): string {
  if (typeof document === 'undefined') return fallback;
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}
