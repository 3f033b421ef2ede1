/**
 * Tools that work on a node's data directories from outside the node, with its
 * storage-conf.xml for the schema: bin/sstable2json and bin/json2sstable. They read and write
 * SSTables through {@link sibyl.io} exactly as the engine does, and never touch what a running
 * node owns (its temporary files, its generations). bin/sstableloader ({@link sibyl.tools.SSTableLoader})
 * reads SSTables copied from other nodes the same way, and writes their merged rows into a running node
 * through its Thrift interface, as any client does, so it works alike for either backend.
 */
package sibyl.tools;
