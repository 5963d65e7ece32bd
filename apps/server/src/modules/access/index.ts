/** Public surface of the access module: the one access function and the abilities of responses. */
export { abilitiesOf, accessItem, allows, anonymousViewer, subjectOf, viewerOf, type AccessItem, type Viewer } from './access.policy.js';
export { abilitiesFor, authorize, cachedViewerFor, may, usersAllowed, viewerFor, type AuthorizeOptions } from './access.service.js';
export { currentLinkHolder, itemLinkVersion, linkVersionOf, parseLinkAccess, shortBlobUrl, teamLinkVersionOf } from './link-version.js';
export { linkGrants } from './link-grants.js';
export { inTeamsOf } from './access.repository.js';
