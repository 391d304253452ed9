// Fixed value lists for generated Salesforce Accounts: industries, cities (a few non-ASCII),
// tags, name parts and picklist values. Facts about the Account object, not code.

/// The closed lists the Account generator draws from.
package enum AccountCatalog {
    package static let industries = [
        "Agriculture", "Apparel", "Banking", "Biotechnology", "Chemicals", "Communications",
        "Construction", "Consulting", "Education", "Electronics", "Energy", "Engineering",
        "Entertainment", "Finance", "Food & Beverage", "Healthcare", "Hospitality", "Insurance",
        "Manufacturing", "Media", "Retail", "Technology", "Telecommunications", "Transportation",
    ]

    /// Cities with the country each belongs to.
    package static let cities: [(city: String, country: String)] = [
        ("San Francisco", "USA"), ("New York", "USA"), ("Chicago", "USA"), ("Austin", "USA"),
        ("Seattle", "USA"), ("Boston", "USA"), ("Denver", "USA"), ("Atlanta", "USA"),
        ("Los Angeles", "USA"), ("Miami", "USA"), ("Dallas", "USA"), ("Portland", "USA"),
        ("Toronto", "Canada"), ("Vancouver", "Canada"), ("Montréal", "Canada"),
        ("Ciudad de México", "Mexico"), ("São Paulo", "Brazil"), ("Buenos Aires", "Argentina"),
        ("Bogotá", "Colombia"), ("Santiago", "Chile"), ("London", "UK"), ("Manchester", "UK"),
        ("Edinburgh", "UK"), ("Dublin", "Ireland"), ("Paris", "France"), ("Lyon", "France"),
        ("Berlin", "Germany"), ("München", "Germany"), ("Düsseldorf", "Germany"),
        ("Hamburg", "Germany"), ("Zürich", "Switzerland"), ("Genève", "Switzerland"),
        ("Wien", "Austria"), ("Amsterdam", "Netherlands"), ("Bruxelles", "Belgium"),
        ("København", "Denmark"), ("Malmö", "Sweden"), ("Stockholm", "Sweden"), ("Oslo", "Norway"),
        ("Helsinki", "Finland"), ("Kraków", "Poland"), ("Praha", "Czechia"), ("Madrid", "Spain"),
        ("Barcelona", "Spain"), ("Lisboa", "Portugal"), ("Milano", "Italy"), ("İstanbul", "Türkiye"),
        ("Tokyo", "Japan"), ("Singapore", "Singapore"), ("Sydney", "Australia"),
    ]

    package static let tags = [
        "enterprise", "smb", "strategic", "partner", "renewal", "upsell", "churn-risk",
        "reference", "public-sector", "emea", "apac", "amer", "priority", "pilot", "expansion",
        "new-logo", "key-account", "at-risk", "champion", "trial",
    ]

    package static let nameStems = [
        "North", "South", "Blue", "Red", "Green", "Silver", "Golden", "Iron", "Bright", "Swift",
        "Summit", "Harbor", "River", "Maple", "Cedar", "Stone", "Pioneer", "Atlas", "Nova",
        "Vertex", "Quantum", "Crescent", "Evergreen", "Falcon", "Granite", "Horizon", "Lumen",
        "Meridian", "Orbit", "Prairie",
    ]

    package static let nameNouns = [
        "wind", "field", "bridge", "works", "point", "gate", "line", "wave", "forge", "path",
        "stream", "peak", "light", "port", "hill", "crest", "dale", "rock", "view", "land",
    ]

    package static let nameSecondWords = [
        "Traders", "Systems", "Industries", "Logistics", "Health", "Partners", "Labs", "Foods",
        "Energy", "Financial", "Media", "Motors", "Analytics", "Supply", "Holdings", "Solutions",
    ]

    package static let legalSuffixes = ["Inc.", "LLC", "Corp.", "Ltd.", "GmbH", "S.A.", "AG", "plc", "Co."]

    package static let accountTypes = [
        "Customer - Direct", "Customer - Channel", "Prospect", "Channel Partner / Reseller",
        "Installation Partner", "Technology Partner", "Other",
    ]

    package static let ratings = ["Hot", "Warm", "Cold"]

    package static let keyPrefixAccount = "001"
    package static let keyPrefixUser = "005"
}
