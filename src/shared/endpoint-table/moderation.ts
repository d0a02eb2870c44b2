/**
 * Moderation's calls in the route table (../endpoints.ts), for moderators only (-1006 for anyone
 * else): the review queue, the actions on reported content and users, the audit log.
 */

export const moderationQueue = { name: 'moderationQueue', method: 'POST', path: '/serv/v1/moderation/queue', auth: 'required', kind: 'read' } as const;
export const moderationLog = { name: 'moderationLog', method: 'POST', path: '/serv/v1/moderation/log', auth: 'required', kind: 'read' } as const;
export const moderationHide = { name: 'moderationHide', method: 'POST', path: '/serv/v1/moderation/hide', auth: 'required', kind: 'write' } as const;
export const moderationRestore = { name: 'moderationRestore', method: 'POST', path: '/serv/v1/moderation/restore', auth: 'required', kind: 'write' } as const;
export const moderationDismiss = { name: 'moderationDismiss', method: 'POST', path: '/serv/v1/moderation/dismiss', auth: 'required', kind: 'write' } as const;
export const moderationSuspend = { name: 'moderationSuspend', method: 'POST', path: '/serv/v1/moderation/suspend', auth: 'required', kind: 'write' } as const;
export const moderationLift = { name: 'moderationLift', method: 'POST', path: '/serv/v1/moderation/lift', auth: 'required', kind: 'write' } as const;
