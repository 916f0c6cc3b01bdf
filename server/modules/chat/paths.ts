// The chat calls' paths, apart from their routes: core/auth.ts lists them as login-only calls.
export const CHAT_PREFIX = '/admin/chat';
export const CHAT_PATHS = ['session/info', 'session/unread', 'session/read', 'session/files', 'message/page', 'message/send', 'message/stream'].map(
  (p) => `${CHAT_PREFIX}/${p}`,
);
