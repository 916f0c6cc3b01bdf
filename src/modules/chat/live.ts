/**
 * The user's unread conversation counts and new messages, kept live: while anything on the page
 * subscribes, one message stream (GET /admin/chat/message/stream, server-sent events read with
 * fetch, since the token goes in a header) is open. It is opened again when it ends (the token
 * ran out: a fresh one is fetched first), and closed when the session ends.
 */
import { useSyncExternalStore } from 'react';
import { session } from '../../api/client.ts';
import { currentLocale } from '../../i18n/index.ts';
import type { ChatMessage, ChatUnread } from '../../../common/chat.ts';
import { unreadCounts } from './api.ts';

const STREAM_URL = '/admin/chat/message/stream';
/** Longest pause before opening a failed stream again. */
const RETRY_MAX_MS = 30_000;

export interface UnreadState {
  total: number;
  byOrder: ReadonlyMap<number, number>;
}

let unread: UnreadState = { total: 0, byOrder: new Map() };
const unreadListeners = new Set<() => void>();
/** A listener answers true when it took the message as read (its conversation is open). */
const messageListeners = new Set<(message: ChatMessage) => boolean>();
let subscribers = 0;
let running: AbortController | null = null;

/** Takes counts the server answered (the stream's first event, a read marker moved, a refresh). */
export function applyUnread(counts: ChatUnread): void {
  unread = { total: counts.total, byOrder: new Map(counts.orders.map((o) => [o.orderId, o.unread])) };
  for (const fn of unreadListeners) fn();
}

/** Counts calls in flight: only the last one started is taken (an older answer may be stale). */
let asked = 0;

/** Takes the counts a call answers, unless a later call was started meanwhile. */
export function trackUnread(call: Promise<ChatUnread>): void {
  const n = ++asked;
  call.then((counts) => n === asked && applyUnread(counts), () => undefined);
}

export function refreshUnread(): void {
  trackUnread(unreadCounts());
}

/** Calls `fn` with every new message of the user's conversations while subscribed. */
export function onChatMessage(fn: (message: ChatMessage) => boolean): () => void {
  messageListeners.add(fn);
  return () => messageListeners.delete(fn);
}

function handle(event: string, data: string): void {
  if (event === 'ready') applyUnread(JSON.parse(data) as ChatUnread);
  else if (event === 'message') {
    const message = JSON.parse(data) as ChatMessage;
    let read = false;
    for (const fn of messageListeners) read = fn(message) || read;
    // A message read at once moves the read marker, whose answer brings the counts.
    if (!read) refreshUnread();
  }
}

/** Reads server-sent events until the stream ends. */
async function readEvents(body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let at: number;
    while ((at = buffer.indexOf('\n\n')) >= 0) {
      const lines = buffer.slice(0, at).split('\n');
      buffer = buffer.slice(at + 2);
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
      const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
      if (event) handle(event, data);
    }
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}

async function run(signal: AbortSignal): Promise<void> {
  let failures = 0;
  while (!signal.aborted && session.hasToken()) {
    try {
      const token = await session.validToken();
      const res = await fetch(STREAM_URL, {
        headers: { Authorization: token, Accept: 'text/event-stream', 'Accept-Language': currentLocale() },
        signal,
      });
      if (res.status === 401) {
        // Revoked: an ordinary call lets the session end it (message, back to login).
        refreshUnread();
        return;
      }
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
      failures = 0;
      await readEvents(res.body);
      // Ended by the server (the token ran out, or a restart): open it again at once.
      continue;
    } catch {
      if (signal.aborted) return;
      failures++;
    }
    await pause(Math.min(RETRY_MAX_MS, 1000 * 2 ** failures), signal);
  }
}

function start(): void {
  if (running || !session.hasToken()) return;
  const controller = new AbortController();
  running = controller;
  void run(controller.signal).finally(() => {
    if (running === controller) running = null;
  });
}

function stop(): void {
  running?.abort();
  running = null;
}

session.subscribe((event) => {
  if (event.type === 'logout' || (event.type === 'change' && event.session === null)) {
    stop();
    applyUnread({ total: 0, orders: [] });
  } else if (event.type === 'change' && subscribers > 0) start();
});

function subscribe(fn: () => void): () => void {
  unreadListeners.add(fn);
  if (++subscribers === 1) start();
  return () => {
    unreadListeners.delete(fn);
    if (--subscribers === 0) stop();
  };
}

/** The user's unread counts; subscribing keeps the stream open. */
export function useChatUnread(): UnreadState {
  return useSyncExternalStore(subscribe, () => unread);
}
