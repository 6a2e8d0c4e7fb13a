/// A binary heap: `pop` gives the element `comesFirst` orders before all others (with `<`, the
/// least). Pushing and popping take log n steps.
struct BinaryHeap<Element> {
    private var items: [Element] = []
    private let comesFirst: (Element, Element) -> Bool

    init(_ comesFirst: @escaping (Element, Element) -> Bool) { self.comesFirst = comesFirst }

    var isEmpty: Bool { items.isEmpty }

    mutating func push(_ e: Element) {
        items.append(e)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard comesFirst(items[i], items[parent]) else { break }
            items.swapAt(parent, i); i = parent
        }
    }

    mutating func pop() -> Element? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < items.count && comesFirst(items[l], items[m]) { m = l }
                if r < items.count && comesFirst(items[r], items[m]) { m = r }
                if m == i { break }
                items.swapAt(i, m); i = m
            }
        }
        return top
    }
}
