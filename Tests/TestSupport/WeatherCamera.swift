import MapCore

/// The weather example's camera and camera bounds (nightmap's radar scene), which the engine
/// tests use as an ordinary camera.
public let weatherCamera = CameraState(center: LngLat(lng: -75.789, lat: 41.874), zoom: 5)
public let weatherBounds = CameraBounds(minZoom: 4, maxZoom: 5.99)
