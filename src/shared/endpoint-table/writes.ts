/** The writes of the route table (../endpoints.ts), but the session's, the notices' and moderation's. */

export const followChannel = { name: 'followChannel', method: 'POST', path: '/serv/v1/follower/follower_channel', auth: 'required', kind: 'write' } as const;
export const unfollowChannel = { name: 'unfollowChannel', method: 'POST', path: '/serv/v1/follower/follower_channel_cancel', auth: 'required', kind: 'write' } as const;
export const followUser = { name: 'followUser', method: 'POST', path: '/serv/v1/follower/follower_user', auth: 'required', kind: 'write' } as const;
export const unfollowUser = { name: 'unfollowUser', method: 'POST', path: '/serv/v1/follower/follower_user_cancel', auth: 'required', kind: 'write' } as const;
export const nickUpdate = { name: 'nickUpdate', method: 'POST', path: '/serv/v1/user/nick/update', auth: 'required', kind: 'write' } as const;
export const postAdd = { name: 'postAdd', method: 'POST', path: '/serv/v1/post/add', auth: 'required', kind: 'write' } as const;
export const postDelete = { name: 'postDelete', method: 'POST', path: '/serv/v1/post/delete', auth: 'required', kind: 'write' } as const;
export const likeAdd = { name: 'likeAdd', method: 'POST', path: '/serv/v1/likes/add', auth: 'required', kind: 'write' } as const;
export const likeCancel = { name: 'likeCancel', method: 'POST', path: '/serv/v1/likes/cancel', auth: 'required', kind: 'write' } as const;
export const commentAdd = { name: 'commentAdd', method: 'POST', path: '/serv/v1/comment/add', auth: 'required', kind: 'write' } as const;
export const commentDelete = { name: 'commentDelete', method: 'POST', path: '/serv/v1/comment/delete', auth: 'required', kind: 'write' } as const;
export const voteSubmit = { name: 'voteSubmit', method: 'POST', path: '/serv/v1/vote/submit', auth: 'required', kind: 'write' } as const;
export const complainAdd = { name: 'complainAdd', method: 'POST', path: '/serv/v1/complain/add', auth: 'required', kind: 'write' } as const;
export const noteUpdate = { name: 'noteUpdate', method: 'POST', path: '/serv/v3/note/update', auth: 'required', kind: 'write' } as const;
export const collect = { name: 'collect', method: 'POST', path: '/serv/collect', auth: 'optional', kind: 'write' } as const;
