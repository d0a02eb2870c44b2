/** The session's calls in the route table (../endpoints.ts): logging in and out, and who is logged in. */

export const loginCode = { name: 'loginCode', method: 'POST', path: '/serv/v1/user/login/code', auth: 'none', kind: 'write' } as const;
export const login = { name: 'login', method: 'POST', path: '/serv/v1/user/login', auth: 'none', kind: 'write' } as const;
export const logout = { name: 'logout', method: 'POST', path: '/serv/v1/user/logout', auth: 'required', kind: 'write' } as const;
export const auth = { name: 'auth', method: 'GET', path: '/serv/v1/user/auth', auth: 'optional', kind: 'read' } as const;
export const checkUser = { name: 'checkUser', method: 'GET', path: '/serv/v1/user/check_user', auth: 'required', kind: 'read' } as const;
