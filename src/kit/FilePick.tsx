/** A toolbar button that opens a file chooser and hands over the chosen file. */
import { useRef } from 'react';
import { Icon } from '../ui/icons.tsx';

export function FilePick({ label, accept, onFile, busy }: { label: string; accept: string; onFile: (file: File) => void; busy?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className="aw-btn-default" disabled={busy} onClick={() => input.current?.click()}>
        <Icon name="file" className="size-4" />
        {label}
      </button>
      <input
        ref={input}
        type="file"
        accept={accept}
        className="hidden"
        aria-label={label}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) onFile(file);
        }}
      />
    </>
  );
}
