/** Public surface of the access module: the one access function and the abilities of responses. */
export { abilitiesOf, accessItem, allows, anonymousViewer, subjectOf, viewerOf, type AccessItem, type Viewer } from './access.policy.js';
export { abilitiesFor, authorize, may, viewerFor, type AuthorizeOptions } from './access.service.js';
export { linkVersionOf, shortBlobUrl, teamLinkVersionOf } from './link-version.js';
