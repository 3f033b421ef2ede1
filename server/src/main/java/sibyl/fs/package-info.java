/**
 * File-system habits every part of the node that writes files shares: directories created and
 * renames made durable before anything depends on them. A leaf: it knows nothing of the server.
 */
package sibyl.fs;
