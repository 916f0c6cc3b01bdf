// Node-only: serves the device hub on /ws/device of the HTTP server with `ws`, through the
// server's 'upgrade' event (the Hono app stays web-standard). Frames over 1 MiB close the
// connection with 1009 (ws's maxPayload); the rest of the protocol lives in hub.ts.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AppContext } from '../../context.ts';
import { CLOSE, DeviceHub, type HubOptions } from './hub.ts';

export const DEVICE_PATH = '/ws/device';
export const MAX_FRAME = 1024 * 1024;

export interface NodeHubOptions extends HubOptions {
  /** How often tick() runs (pings, resends, silence); tests that drive the clock call tick() too. */
  tickMs?: number;
}

export interface NodeHub {
  hub: DeviceHub;
  close(): Promise<void>;
}

function headerKey(req: IncomingMessage): string | undefined {
  const m = /^Device\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return m?.[1];
}

export async function attachDeviceHub(ctx: AppContext, server: Server, opts: NodeHubOptions = {}): Promise<NodeHub> {
  const hub = new DeviceHub(ctx, opts);
  await hub.start();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME });
  const sockets = new Set<WebSocket>();

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (pathname !== DEVICE_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      const close = (code: number, reason: string) => {
        ws.close(code, reason);
        // A flooding client is slow to answer the close frame, and ws would go on reading its
        // frames until it does: give the frame a moment to leave, then cut the line.
        if (code === CLOSE.policy) setTimeout(() => ws.terminate(), 250).unref();
      };
      const conn = hub.open({ send: (text) => ws.send(text), close }, headerKey(req));
      ws.on('message', (data, isBinary) => {
        if (ws.readyState !== ws.OPEN) return;
        if (isBinary) ws.close(CLOSE.invalidJson, 'text frames only');
        else conn.message(data.toString());
      });
      ws.on('close', () => {
        sockets.delete(ws);
        conn.closed();
      });
      // Oversize frames (1009) and protocol errors: ws closes the socket itself.
      ws.on('error', () => {});
    });
  };
  server.on('upgrade', onUpgrade);
  const timer = setInterval(() => hub.tick().catch((err) => ctx.logger.error('Device hub: tick failed', err)), opts.tickMs ?? 1000);
  timer.unref();

  return {
    hub,
    async close() {
      clearInterval(timer);
      server.off('upgrade', onUpgrade);
      await hub.close();
      // Devices got a 1001 close frame; do not wait long for their answer.
      await Promise.race([
        Promise.all([...sockets].map((ws) => new Promise((r) => (ws.readyState === ws.CLOSED ? r(null) : ws.once('close', r))))),
        new Promise((r) => setTimeout(r, 300).unref()),
      ]);
      for (const ws of sockets) ws.terminate();
      wss.close();
    },
  };
}
