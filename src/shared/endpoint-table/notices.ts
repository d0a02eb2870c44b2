/**
 * The notices' calls in the route table (../endpoints.ts): a user's notices, and Web Push (the
 * server's public key, and a device's subscription: pushed new notices while its ticket lives).
 */

export const noticeList = { name: 'noticeList', method: 'POST', path: '/serv/v1/notice/list', auth: 'required', kind: 'read' } as const;
export const noticeUnreadCount = { name: 'noticeUnreadCount', method: 'POST', path: '/serv/v1/notice/unread_count', auth: 'required', kind: 'read', revalidates: true } as const;
export const pushKey = { name: 'pushKey', method: 'POST', path: '/serv/v1/push/key', auth: 'none', kind: 'read' } as const;
export const noticeRead = { name: 'noticeRead', method: 'POST', path: '/serv/v1/notice/read', auth: 'required', kind: 'write' } as const;
export const noticeSettings = { name: 'noticeSettings', method: 'POST', path: '/serv/v1/notice/settings', auth: 'required', kind: 'write' } as const;
export const pushSubscribe = { name: 'pushSubscribe', method: 'POST', path: '/serv/v1/push/subscribe', auth: 'required', kind: 'write' } as const;
export const pushUnsubscribe = { name: 'pushUnsubscribe', method: 'POST', path: '/serv/v1/push/unsubscribe', auth: 'required', kind: 'write' } as const;
