/**
 * An order's conversation in a drawer on the right: the messages (newest at the bottom, older
 * ones on demand), and for the order's creator and designer a composer (Enter sends, Shift+Enter
 * starts a new line) with files from their file space. Not modal, so the page beside it (the
 * editor) stays usable. Message text is rendered as text, never as HTML.
 */
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Dialog } from 'radix-ui';
import { useLingui } from '@lingui/react/macro';
import { CHAT_FILES_MAX, CHAT_TEXT_MAX, type ChatFile, type ChatMessage } from '../../../common/chat.ts';
import { ensureBootstrap, useApp } from '../../app/store.ts';
import { errorMessage } from '../../api/client.ts';
import { Icon } from '../../ui/icons.tsx';
import { toast } from '../../ui/toast.tsx';
import { downloadFile, formatSize } from '../order/upload.ts';
import { AttachPicker } from './AttachPicker.tsx';
import { useConversation } from './useConversation.ts';

export function ChatDrawer({ orderId, onClose }: { orderId: number | null; onClose: () => void }) {
  const { t } = useLingui();
  const me = useApp().user?.id;
  useEffect(() => void ensureBootstrap(), []);
  const { info, messages, hasMore, failed, loadOlder, send } = useConversation(orderId);
  const [text, setText] = useState('');
  const [files, setFiles] = useState<ChatFile[]>([]);
  const [picking, setPicking] = useState(false);
  const [sending, setSending] = useState(false);
  const list = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);

  useEffect(() => {
    setText('');
    setFiles([]);
    setPicking(false);
    atBottom.current = true;
  }, [orderId]);
  // New messages keep the view at the bottom unless the user scrolled up to read older ones.
  const lastId = messages.at(-1)?.id;
  useLayoutEffect(() => {
    const el = list.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [lastId]);

  const submit = async () => {
    const body = text.trim();
    if ((!body && files.length === 0) || sending) return;
    setSending(true);
    try {
      await send(body, files.map((f) => f.id));
      setText('');
      setFiles([]);
      setPicking(false);
      atBottom.current = true;
    } catch {
      // The client showed the error.
    } finally {
      setSending(false);
    }
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    }
  };
  const caseNo = info?.caseNo ?? '';
  const creator = info?.creator.name ?? '';
  const designer = info?.designer.name ?? '';

  return (
    <Dialog.Root open={orderId !== null} onOpenChange={(o) => !o && onClose()} modal={false}>
      <Dialog.Portal>
        <Dialog.Content
          aria-describedby={undefined}
          ref={panel}
          onInteractOutside={(e) => e.preventDefault()}
          // Escape closes it only from inside: in the page beside it Escape is the page's (a tool's cancel).
          onEscapeKeyDown={(e) => {
            if (!panel.current?.contains(document.activeElement)) e.preventDefault();
          }}
          className="fixed top-0 right-0 z-40 flex h-full w-[400px] max-w-full flex-col border-l border-slate-200 bg-white shadow-xl outline-none"
          data-testid="chat-drawer"
          data-order-id={orderId ?? ''}
          data-loaded={info ? 'true' : 'false'}
        >
          <div className="flex shrink-0 items-start gap-2 border-b border-slate-100 py-3 pr-2 pl-4">
            <div className="min-w-0 flex-1">
              <Dialog.Title className="truncate text-base font-semibold text-slate-900">{info ? t`Conversation · ${caseNo}` : t`Conversation`}</Dialog.Title>
              {info && (
                <p className="truncate text-xs text-slate-500">
                  {info.patientName} · {t`Created by ${creator}, designed by ${designer}`}
                </p>
              )}
            </div>
            <Dialog.Close className="aw-btn-icon" aria-label={t`Close`}>
              <Icon name="x" className="size-4" />
            </Dialog.Close>
          </div>

          <div
            ref={list}
            className="min-h-0 flex-1 space-y-3 overflow-y-auto bg-slate-50 px-4 py-3"
            data-testid="chat-messages"
            aria-live="polite"
            onScroll={(e) => {
              const el = e.currentTarget;
              atBottom.current = el.scrollTop + el.clientHeight >= el.scrollHeight - 24;
            }}
          >
            {hasMore && (
              <div className="text-center">
                <button type="button" className="text-xs text-primary hover:underline" onClick={() => void loadOlder().catch(() => undefined)}>
                  {t`Show older messages`}
                </button>
              </div>
            )}
            {failed && <p className="text-center text-sm text-red-600">{t`The conversation could not be loaded`}</p>}
            {info && messages.length === 0 && <p className="py-8 text-center text-sm text-slate-500">{t`No messages yet`}</p>}
            {messages.map((m) => (
              <Bubble key={m.id} message={m} mine={m.senderId === me} />
            ))}
          </div>

          {info && !info.canWrite && (
            <p className="shrink-0 border-t border-slate-200 px-4 py-3 text-sm text-slate-500" data-testid="chat-read-only">
              {t`Only the order's creator and designer can write here.`}
            </p>
          )}
          {info?.canWrite && (
            <div className="shrink-0 border-t border-slate-200">
              {picking && <AttachPicker chosen={files} onChange={setFiles} />}
              {files.length > 0 && (
                <ul className="flex flex-wrap gap-1.5 px-3 pt-2" aria-label={t`Attached files`}>
                  {files.map((f) => (
                    <li key={f.id} className="flex max-w-full items-center gap-1 rounded bg-slate-100 py-0.5 pr-1 pl-2 text-xs text-slate-700">
                      <span className="truncate">{f.name}</span>
                      <button type="button" className="rounded p-0.5 hover:bg-slate-200" aria-label={t`Remove ${f.name}`} onClick={() => setFiles(files.filter((x) => x.id !== f.id))}>
                        <Icon name="x" className="size-3" />
                      </button>
                    </li>
                  ))}
                </ul>
              )}
              <div className="flex items-end gap-2 p-3">
                <button
                  type="button"
                  className={`aw-btn-icon shrink-0 ${picking ? 'bg-primary-light-9 text-primary' : ''}`}
                  aria-label={t`Attach files from your file space`}
                  title={t`Attach files from your file space (up to ${CHAT_FILES_MAX})`}
                  aria-pressed={picking}
                  onClick={() => setPicking(!picking)}
                  data-testid="chat-attach"
                >
                  <Icon name="paperclip" className="size-4" />
                </button>
                <textarea
                  className="aw-input max-h-32 min-h-[56px] flex-1 resize-none py-1.5"
                  rows={2}
                  maxLength={CHAT_TEXT_MAX}
                  value={text}
                  onChange={(e) => setText(e.target.value)}
                  onKeyDown={onKeyDown}
                  placeholder={t`Message (Enter sends, Shift+Enter: new line)`}
                  aria-label={t`Message`}
                  data-testid="chat-input"
                />
                <button
                  type="button"
                  className="aw-btn-primary shrink-0"
                  disabled={sending || (!text.trim() && files.length === 0)}
                  onClick={() => void submit()}
                  data-testid="chat-send"
                >
                  {t`Send`}
                </button>
              </div>
            </div>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function Bubble({ message, mine }: { message: ChatMessage; mine: boolean }) {
  const { t } = useLingui();
  const open = (f: ChatFile) =>
    downloadFile(f.url, f.name).catch((err: unknown) => {
      toast.error(errorMessage(err));
    });
  return (
    <div className={`flex flex-col ${mine ? 'items-end' : 'items-start'}`} data-testid="chat-message" data-mine={mine ? 'true' : 'false'}>
      <span className="mb-0.5 text-[11px] text-slate-500">
        {mine ? t`You` : message.senderName} · {message.createTime.slice(5, 16)}
      </span>
      <div className={`max-w-[85%] rounded-lg px-3 py-2 text-sm shadow-sm ${mine ? 'bg-primary text-white' : 'bg-white text-slate-800'}`}>
        {message.text && <p className="break-words whitespace-pre-wrap">{message.text}</p>}
        {message.files.length > 0 && (
          <ul className={message.text ? 'mt-1.5 space-y-1' : 'space-y-1'}>
            {message.files.map((f) => (
              <li key={f.id}>
                <button
                  type="button"
                  className={`flex max-w-full items-center gap-1.5 rounded px-1.5 py-1 text-left text-xs underline-offset-2 hover:underline ${mine ? 'bg-white/15' : 'bg-slate-100'}`}
                  onClick={() => void open(f)}
                  title={t`Download ${f.name}`}
                >
                  <Icon name="file" className="size-3.5 shrink-0" />
                  <span className="truncate">{f.name}</span>
                  <span className="shrink-0 opacity-70">{formatSize(f.size)}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
