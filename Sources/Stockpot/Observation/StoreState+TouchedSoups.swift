// Which soups a commit touched, named by comparing the state it started from with the state
// it publishes (docs/store.md, "Observation").

extension StoreState {
    /// The names of the soups that differ between `base` and this state: a soup whose
    /// content version changed, a new soup, and a removed one, each under its name (a soup
    /// removed and registered again under the same name has a new id, so counts as well).
    ///
    /// - Complexity: O(number of soups of both states).
    func touchedSoupNames(since base: StoreState) -> [String] {
        var names: [String] = []
        for (id, soup) in soups where base.soups[id]?.contentVersion != soup.contentVersion {
            names.append(soup.name)
        }
        for (id, soup) in base.soups where soups[id] == nil {
            names.append(soup.name)
        }
        return names
    }
}
