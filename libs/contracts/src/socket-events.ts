/**
 * Socket.IO event map. The server only says *what* changed; the console invalidates the matching
 * queries and refetches (the socket is never a second store). Pushes never carry secrets.
 */
export type ChangeTopic =
  | 'self'
  | 'users'
  | 'options'
  | 'status'
  | 'tokens'
  | 'redemptions'
  | 'logs'
  | 'channels'
  /** The dashboard's hourly usage rows (quota_data) moved: sent once they are written. */
  | 'usage'
  /** The channel performance rows (channel_performance) moved: admins only. */
  | 'performance'
  /** A Midjourney or Suno task of this audience was submitted, progressed, finished or refunded. */
  | 'tasks';

export interface ChangedEvent {
  topic: ChangeTopic;
  /** The entity id when the change concerns one entity. */
  id?: number | string;
}

export interface ServerToClientEvents {
  changed: (event: ChangedEvent) => void;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ClientToServerEvents {}

export const SOCKET_PATH = '/socket.io';
