/**
 * Every call's method, path, auth and kind, as plain data: the client, the service worker and
 * the server all read it. The zod schemas of each call's input and output are in api.ts, which
 * only the server and tests load at run time; the client takes their types alone, so zod never
 * ships to browsers.
 */
import type { z } from 'zod';
import type { api } from './api.ts';
import * as table from './endpoint-table/index.ts';

/** Who may call: anyone, anyone (answers differ when logged in), or logged-in users only (-2000). */
export type Auth = 'none' | 'optional' | 'required';

export interface Route {
  method: 'GET' | 'POST';
  path: string;
  auth: Auth;
  /** Reads change nothing, so the service worker may answer them from its cache offline. */
  kind: 'read' | 'write';
  /** Answers 304, with no body, to a caller whose If-None-Match holds the answer's ETag. */
  revalidates?: true;
}

/**
 * Every call by its name (the table is endpoint-table/, a module for each kind of call): its
 * method, path, auth and kind, and its name again, which the client's request() reads its types by.
 */
export const routes: { readonly [K in keyof typeof table]: (typeof table)[K] & Route & { name: K } } = table;

export type EndpointName = keyof typeof routes;

type Contract = typeof api;
export type InputOf<K extends EndpointName> = z.input<Contract[K]['input']>;
export type OutputOf<K extends EndpointName> = z.output<Contract[K]['output']>;

/** A route that carries its name, so the client's request() knows its input and output types by it. */
export type ClientEndpoint<K extends EndpointName = EndpointName> = Route & { readonly name: K };

/**
 * The routes as the client calls them, `request(endpoints.auth, …)`: a namespace, so that a bundle
 * carries only the table's modules whose calls its code names.
 */
export * as endpoints from './endpoint-table/index.ts';

/** The header that marks a base64-encoded JSON body (the note update call, noteUpdate, sends one). */
export const BASE64_BODY_HEADER = 'x-body-encoding';
export const BASE64_BODY_VALUE = 'base64';

export const TICKET_COOKIE = 'GCESS';
export const TICKET_HEADER = 'ticket';
export const DEVICE_ID_HEADER = 'device-id';
/**
 * Set by the page (readable, not httpOnly) when a user logs out and the server may not have heard
 * yet (offline): whatever request next reaches the server with it ends the ticket first.
 */
export const LOGOUT_PENDING_COOKIE = 'horde_logout'; // horde: src/client/README.md ('horde')

/** HTTP status of a ticket ended by a login on another device of the same kind. */
export const HTTP_LOGGED_IN_ELSEWHERE = 452;

/** Paths outside the JSON contract. */
export const OTHER_PATHS = {
  ticketDelete: '/serv/v1/user/ticket/delete',
  uploadImage: '/serv/v1/upload/image',
  images: '/img',
  live: '/serv/v1/live',
  docs: '/docs',
} as const;
