package sibyl.service;

import java.util.List;

/**
 * A CQL statement prepared ({@link StorageService#prepareCql}): the id a later execution names it by, and its bind
 * markers' names and types (named as {@link CqlAnswer} names types), in order.
 */
public record CqlPrepared(int id, List<String> variableNames, List<String> variableTypes) {
    public CqlPrepared {
        variableNames = List.copyOf(variableNames);
        variableTypes = List.copyOf(variableTypes);
        if (variableNames.size() != variableTypes.size()) {
            throw new IllegalArgumentException(variableNames + " against types " + variableTypes);
        }
    }
}
