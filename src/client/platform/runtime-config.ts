/** Settings of this deployment that the client needs at run time. */
export const PROVIDER_NAME: string = __PROVIDER_NAME__;
export const COMMUNITY_NAME = `${PROVIDER_NAME}社区`;
