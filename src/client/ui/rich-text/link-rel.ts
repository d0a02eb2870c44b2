/**
 * rel of the links users write (posts, comments), in the rendered form (sanitize.ts) and the
 * plain one (PlainText, the feed's LinkedText). A tiny module of its own: the plain forms are on
 * the first screen, the sanitizer is not.
 */

/** A link to another site, opened in a new window: no opener, no referrer, user content. */
export const EXTERNAL_LINK_REL = 'noopener noreferrer nofollow ugc';

/** A link on the provider's domain family, opened in place: user content all the same. */
export const PROVIDER_LINK_REL = 'nofollow ugc';
