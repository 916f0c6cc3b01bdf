/** Choosing files of one's own file space to attach to a message (up to CHAT_FILES_MAX). */
import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { CHAT_FILES_MAX, type ChatFile } from '../../../common/chat.ts';
import { formatSize } from '../order/upload.ts';
import { ownFiles } from './api.ts';

export function AttachPicker({ chosen, onChange }: { chosen: ChatFile[]; onChange: (files: ChatFile[]) => void }) {
  const { t } = useLingui();
  const [keyWord, setKeyWord] = useState('');
  const [files, setFiles] = useState<ChatFile[] | null>(null);
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => ownFiles(keyWord.trim()).then((list) => live && setFiles(list), () => live && setFiles([])), 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [keyWord]);
  const isChosen = (f: ChatFile) => chosen.some((c) => c.id === f.id);
  const toggle = (f: ChatFile) => onChange(isChosen(f) ? chosen.filter((c) => c.id !== f.id) : [...chosen, f]);
  const max = CHAT_FILES_MAX;
  return (
    <div className="border-t border-slate-200 bg-slate-50 p-2" data-testid="chat-attach-picker">
      <input
        className="aw-input mb-2 w-full"
        placeholder={t`Search your files`}
        aria-label={t`Search your files`}
        value={keyWord}
        onChange={(e) => setKeyWord(e.target.value)}
      />
      <ul className="max-h-40 overflow-auto text-sm">
        {files === null ? (
          <li className="px-2 py-1 text-slate-500">{t`Loading…`}</li>
        ) : files.length === 0 ? (
          <li className="px-2 py-1 text-slate-500">{t`No files in your file space`}</li>
        ) : (
          files.map((f) => (
            <li key={f.id}>
              <label className="flex cursor-pointer items-center gap-2 rounded px-2 py-1 hover:bg-white">
                <input type="checkbox" className="size-4 accent-primary" checked={isChosen(f)} disabled={!isChosen(f) && chosen.length >= max} onChange={() => toggle(f)} />
                <span className="min-w-0 flex-1 truncate" title={f.name}>
                  {f.name}
                </span>
                <span className="shrink-0 text-xs text-slate-500">{formatSize(f.size)}</span>
              </label>
            </li>
          ))
        )}
      </ul>
      <p className="mt-1 px-2 text-xs text-slate-500">{t`Up to ${max} files per message`}</p>
    </div>
  );
}
